// The device flow's conditions, each driven into the race it guards (test/helpers/interleave: the
// competing write lands after the use case's last read and before its write, every time). A
// sequential second decision or poll is refused from what it reads and never reaches them.
// Written for the survivors of the targeted mutation run (docs/mutation-survivors.md).
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { decideDeviceAuthorization, pollDeviceAuthorization, startDeviceAuthorization } from '../../../src/app/oauth-server/device-flow.ts';
import { mintDeviceCode } from '../../../src/auth/device-codes.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { injectStoreFault } from '../../helpers/inject-store-fault.ts';
import { afterNextRead } from '../../helpers/interleave.ts';

const fixture = useAppFixture('integration-device-races');
const deviceItem = async (userCode: string) =>
  (await fixture.state()).find((item) => item.user_code === userCode && String(item.PK).startsWith('DEVICE#'));

/** Runs `competing` after the second GetItem of the next use case returns (a decision reads the user code, then the request). */
function afterSecondGet(ctx: AppContext, competing: () => Promise<unknown>): void {
  afterNextRead(ctx, async () => afterNextRead(ctx, competing, 'GetItem'), 'GetItem');
}

describe('two people deciding one code at the same moment', () => {
  it("a denial that lands between an approval's read and its write stands: the approval is refused and issues nothing", async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'raced-decision');
    afterSecondGet(fixture.ctx(), () =>
      decideDeviceAuthorization(fixture.ctx(), { account: 'did:plc:denier', userCode: started.user_code, decision: 'denied' }),
    );
    const approval = await decideDeviceAuthorization(fixture.ctx(), {
      account: 'did:plc:approver',
      userCode: started.user_code,
      decision: 'approved',
    }).catch((error: unknown) => error);
    expect(approval).toMatchObject({ code: 'conflict', details: { status: 'denied' } });
    expect(await deviceItem(started.user_code)).toMatchObject({ status: 'denied', account: 'did:plc:denier' });
    expect(await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code })).toMatchObject({
      kind: 'error',
      error: 'access_denied',
    });
  });
});

describe('two polls at the same moment', () => {
  it('of two polls that read the same last poll, one is counted and the other is told slow_down', async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'raced-polls');
    let competing: unknown;
    afterNextRead(
      fixture.ctx(),
      async () => {
        competing = await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code });
      },
      'GetItem',
    );
    const raced = await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code });
    expect(competing).toMatchObject({ kind: 'error', error: 'authorization_pending' });
    // Told the interval it must keep from now on: the stored one plus the slow_down step.
    expect(raced).toMatchObject({ kind: 'error', error: 'slow_down', description: expect.stringContaining('wait 10 seconds') });
    // Only the counted poll is stored: the interval is not stretched by the refused one.
    expect(await deviceItem(started.user_code)).toMatchObject({ interval: 5 });
  });

  it('an approval issues one token even when two polls read it at once: the second is told the code was used', async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'raced-issue');
    await decideDeviceAuthorization(fixture.ctx(), { account: 'did:plc:issuer', userCode: started.user_code, decision: 'approved' });
    let competing: unknown;
    afterNextRead(
      fixture.ctx(),
      async () => {
        competing = await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code });
      },
      'GetItem',
    );
    const raced = await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code });
    expect(competing).toMatchObject({ kind: 'token', account: 'did:plc:issuer' });
    expect(raced).toMatchObject({ kind: 'error', error: 'invalid_grant' });
    const tokens = (await fixture.state()).filter((item) => String(item.PK).startsWith('TOKEN#') && item.client === 'raced-issue');
    expect(tokens).toHaveLength(1);
  });
});

describe('a decided code, decided again', () => {
  it('the same person deciding the same way again gets the same request back and nothing is written; an issued code counts as approved', async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'decided-again');
    const input = { account: 'did:plc:decider', userCode: started.user_code, decision: 'approved' as const };
    const first = await decideDeviceAuthorization(fixture.ctx(), input);
    const after = await fixture.state();
    expect(await decideDeviceAuthorization(fixture.ctx(), input)).toMatchObject({
      status: 'approved',
      account: 'did:plc:decider',
      device_hash: first.device_hash,
    });
    expect(await fixture.state()).toEqual(after);
    expect(await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code })).toMatchObject({ kind: 'token' });
    const issued = await fixture.state();
    expect(await decideDeviceAuthorization(fixture.ctx(), input)).toMatchObject({ status: 'issued' });
    expect(await fixture.state()).toEqual(issued);
  });

  it('another decision on a decided code is conflict and writes nothing: a denial after an approval, an approval by someone else, an approval after a denial', async () => {
    const approved = await startDeviceAuthorization(fixture.ctx(), 'decided-other-way');
    await decideDeviceAuthorization(fixture.ctx(), { account: 'did:plc:first', userCode: approved.user_code, decision: 'approved' });
    const denied = await startDeviceAuthorization(fixture.ctx(), 'denied-first');
    await decideDeviceAuthorization(fixture.ctx(), { account: 'did:plc:first', userCode: denied.user_code, decision: 'denied' });
    const before = await fixture.state();
    for (const input of [
      { account: 'did:plc:first', userCode: approved.user_code, decision: 'denied' as const },
      { account: 'did:plc:second', userCode: approved.user_code, decision: 'approved' as const },
      { account: 'did:plc:first', userCode: denied.user_code, decision: 'approved' as const },
    ]) {
      await expect(decideDeviceAuthorization(fixture.ctx(), input)).rejects.toMatchObject({ code: 'conflict', retryable: false });
    }
    expect(await fixture.state()).toEqual(before);
  });
});

describe('a poll that meets a store failure', () => {
  it('is reported as store_unavailable, not mistaken for a racing poll, and counts nothing', async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'poll-fault');
    const before = await fixture.state();
    // Calls of a poll: read the request (0), record the poll (1).
    const fault = injectStoreFault(fixture.ctx().store.client, { call: 1, moment: 'before' });
    try {
      await expect(pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code })).rejects.toMatchObject({
        code: 'store_unavailable',
      });
    } finally {
      fault.remove();
    }
    expect(await fixture.state()).toEqual(before);
  });
});

describe('a poll names a code lorebook issued, to the client it was issued to', () => {
  it('a well-formed device code lorebook never issued is invalid_grant and writes nothing', async () => {
    const before = await fixture.state();
    expect(await pollDeviceAuthorization(fixture.ctx(), { deviceCode: mintDeviceCode() })).toMatchObject({
      kind: 'error',
      error: 'invalid_grant',
    });
    expect(await fixture.state()).toEqual(before);
  });

  it('a poll from another client_id is invalid_grant and counts nothing; the right client still gets authorization_pending', async () => {
    const started = await startDeviceAuthorization(fixture.ctx(), 'the-right-client');
    const before = await fixture.state();
    expect(await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code, client: 'another-client' })).toMatchObject({
      kind: 'error',
      error: 'invalid_grant',
    });
    expect(await fixture.state()).toEqual(before);
    expect(await pollDeviceAuthorization(fixture.ctx(), { deviceCode: started.device_code, client: 'the-right-client' })).toMatchObject({
      kind: 'error',
      error: 'authorization_pending',
    });
  });
});
