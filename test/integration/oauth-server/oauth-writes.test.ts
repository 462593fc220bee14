// The OAuth use cases against DynamoDB Local, with the faults DynamoDB Local cannot produce
// injected (named mocks, test/helpers/inject-*.ts): a TransactionConflict is waited out and
// re-planned without a second grant or token set; a lost response never yields two token sets;
// a revocation cut off midway is finished by the next one.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { judgeAuthorizeRequest } from '../../../src/app/oauth-server/authorize-request.ts';
import { answerConsent, type SignedInPerson, showConsent } from '../../../src/app/oauth-server/consent.ts';
import { type RegisteredClient, registerClient } from '../../../src/app/oauth-server/register-client.ts';
import { revokeGrantFamily } from '../../../src/app/oauth-server/revoke-grant.ts';
import { tokenRequest } from '../../../src/app/oauth-server/token-request.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { oauthServerAt } from '../../../src/auth/oauth/oauth-settings.ts';
import { isOAuthError } from '../../../src/domain/oauth-error.ts';
import { scenariosFor } from '../../crash/crash-points.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { injectStoreFault } from '../../helpers/inject-store-fault.ts';
import { injectTransactionConflicts } from '../../helpers/inject-transaction-conflict.ts';
import { type Pkce, pkcePair } from '../../helpers/oauth/oauth-flow.ts';

const fixture = useAppFixture('integration-oauth-writes');
const logs: string[] = [];
const oauth = oauthServerAt('http://127.0.0.1:9', undefined, (line) => void logs.push(line));
const person: SignedInPerson = {
  account: 'did:plc:oauthwriter000000000000',
  handle: 'writer.test',
  sessionCookie: 'lbs_session-of-the-writer',
};
const client = (): DynamoDBDocumentClient => fixture.ctx().store.client;
const familyItems = async (clientId: string) =>
  (await fixture.state()).filter((item) => item.client_id === clientId && /^(TOKEN|REFRESH|GRANT)#/.test(String(item.PK)));

let registered: RegisteredClient;
beforeAll(async () => {
  await recordBlueskySignIn(fixture.ctx(), { did: person.account, handle: person.handle });
});

async function consentFor(name: string): Promise<{ secret: string; pkce: Pkce; redirectUri: string; clientId: string }> {
  const redirectUri = `http://127.0.0.1:47000/${name}`;
  registered = await registerClient(fixture.ctx(), oauth, { client_name: name, redirect_uris: [redirectUri] }, '127.0.0.1');
  const pkce = pkcePair();
  const verdict = await judgeAuthorizeRequest(
    fixture.ctx(),
    oauth,
    new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  );
  if (!verdict.ok) throw verdict.error;
  const { consentSecret } = await showConsent(fixture.ctx(), oauth, person, verdict.request);
  return { secret: consentSecret, pkce, redirectUri, clientId: registered.client_id };
}

const codeOf = (redirectTo: string): string => new URL(redirectTo).searchParams.get('code') ?? '';
const exchangeForm = (clientId: string, code: string, pkce: Pkce, redirectUri: string) =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: pkce.verifier,
    redirect_uri: redirectUri,
  });

describe('OAuth writes under faults', () => {
  it('a registration that meets TransactionConflicts waits, re-plans and makes one client, counted once in the budget', async () => {
    const budget = async () =>
      Number((await fixture.state()).find((item) => item.PK === 'RATE#oauth-registration:ip:127.0.0.1')?.count ?? 0);
    const counted = await budget();
    const conflicts = injectTransactionConflicts(client(), 2);
    let answer: RegisteredClient;
    try {
      answer = await registerClient(
        fixture.ctx(),
        oauth,
        {
          client_name: 'conflicted-register',
          redirect_uris: ['http://127.0.0.1:47000/conflicted-register'],
        },
        '127.0.0.1',
      );
      expect(conflicts.injected()).toBe(2);
    } finally {
      conflicts.remove();
    }
    const stored = await fixture.state();
    expect(stored.filter((item) => item.client_id === answer.client_id && String(item.PK).startsWith('OAUTHCLIENT#'))).toHaveLength(1);
    expect(await budget()).toBe(counted + 1);
  });

  it('a registration that keeps meeting conflicts is a retryable conflict (registrations_crowded) and writes nothing', async () => {
    const before = await fixture.state();
    const conflicts = injectTransactionConflicts(client(), fixture.ctx().config.maxWriteAttempts);
    try {
      const refused = registerClient(
        fixture.ctx(),
        oauth,
        {
          client_name: 'crowded-register',
          redirect_uris: ['http://127.0.0.1:47000/crowded-register'],
        },
        '127.0.0.1',
      );
      await expect(refused).rejects.toMatchObject({
        code: 'conflict',
        retryable: true,
        retryAfterMs: expect.any(Number),
        details: { reason: 'registrations_crowded' },
      });
    } finally {
      conflicts.remove();
    }
    expect(await fixture.state()).toEqual(before);
  });

  it('an Approve that meets TransactionConflicts waits, re-plans and still makes one grant and one code', async () => {
    const { secret, clientId } = await consentFor('conflicted-approve');
    const conflicts = injectTransactionConflicts(client(), 2);
    try {
      const logged = logs.length;
      const answer = await answerConsent(fixture.ctx(), oauth, person, secret, true);
      expect(conflicts.injected()).toBe(2);
      expect((await answerConsent(fixture.ctx(), oauth, person, secret, true)).redirectTo).toBe(answer.redirectTo);
      // One line for the one decision, however many attempts and clicks it took.
      expect(logs.slice(logged)).toEqual([
        expect.stringMatching(
          /^lorebook: oauth consent approved: "conflicted-approve" \(grant [0-9a-f]{32}\) may act as did:plc:oauthwriter/,
        ),
      ]);
    } finally {
      conflicts.remove();
    }
    const stored = (await fixture.state()).filter((item) => item.client_id === clientId && /^(GRANT|AUTHCODE)#/.test(String(item.PK)));
    expect(stored.map((item) => `${String(item.PK).split('#')[0]}/${String(item.SK).split('#')[0]}`).sort()).toEqual([
      'AUTHCODE/META',
      'GRANT/META',
    ]);
  });

  it('a code exchange that meets a TransactionConflict is re-planned, not mistaken for a replay: one token set', async () => {
    const { secret, pkce, redirectUri, clientId } = await consentFor('conflicted-exchange');
    const code = codeOf((await answerConsent(fixture.ctx(), oauth, person, secret, true)).redirectTo);
    const conflicts = injectTransactionConflicts(client(), 1);
    try {
      const tokens = await tokenRequest(fixture.ctx(), oauth, exchangeForm(clientId, code, pkce, redirectUri));
      expect(tokens.access_token).toMatch(/^lbk_/);
    } finally {
      conflicts.remove();
    }
    const family = await familyItems(clientId);
    expect(family.filter((item) => String(item.PK).startsWith('TOKEN#'))).toHaveLength(1);
    expect(family.filter((item) => String(item.PK).startsWith('REFRESH#'))).toHaveLength(1);
  });

  it('an exchange whose response was lost never leaves two token sets: the retry is a replay and revokes the first', async () => {
    const { secret, pkce, redirectUri, clientId } = await consentFor('lost-response');
    const code = codeOf((await answerConsent(fixture.ctx(), oauth, person, secret, true)).redirectTo);
    // Calls of the exchange: the client read (0), the snapshot read (1), the transaction (2).
    const fault = injectStoreFault(client(), { call: 2, moment: 'response-lost' });
    try {
      await expect(tokenRequest(fixture.ctx(), oauth, exchangeForm(clientId, code, pkce, redirectUri))).rejects.toMatchObject({
        code: 'store_unavailable',
      });
      expect(fault.firedOn()).toBe('TransactWriteItems');
    } finally {
      fault.remove();
    }
    const retry = await tokenRequest(fixture.ctx(), oauth, exchangeForm(clientId, code, pkce, redirectUri)).catch(
      (error: unknown) => error,
    );
    expect(isOAuthError(retry) && retry.error).toBe('invalid_grant');
    expect(logs.at(-1)).toMatch(
      new RegExp(
        `^lorebook: WARNING oauth authorization code of grant [0-9a-f]{32} \\(client ${clientId}\\) presented again: revoking the whole grant$`,
      ),
    );
    expect((await familyItems(clientId)).filter((item) => /^(TOKEN|REFRESH)#/.test(String(item.PK)))).toEqual([]);
  });

  it('a revocation cut off midway is finished by the next one, which then changes nothing more', async () => {
    const { secret, pkce, redirectUri, clientId } = await consentFor('cut-off-revoke');
    const code = codeOf((await answerConsent(fixture.ctx(), oauth, person, secret, true)).redirectTo);
    const first = await tokenRequest(fixture.ctx(), oauth, exchangeForm(clientId, code, pkce, redirectUri));
    await tokenRequest(
      fixture.ctx(),
      oauth,
      new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token }),
    );
    const grantId = String(
      (await familyItems(clientId)).find((item) => item.SK === 'META' && String(item.PK).startsWith('GRANT#'))?.grant_id,
    );
    // Calls of a revocation: read the grant (0), mark it revoked (1), query its members (2), delete them (3).
    const fault = injectStoreFault(client(), { call: 3, moment: 'before' });
    try {
      await expect(revokeGrantFamily(fixture.ctx(), grantId)).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(fault.firedOn()).toBe('TransactWriteItems');
    } finally {
      fault.remove();
    }
    // Marked revoked: nothing can be minted from it any more, even before the sweep is finished.
    expect((await familyItems(clientId)).find((item) => item.SK === 'META' && String(item.PK).startsWith('GRANT#'))).toHaveProperty(
      'revoked_at',
    );
    await revokeGrantFamily(fixture.ctx(), grantId);
    expect(await familyItems(clientId)).toEqual([]);
    expect(
      (await fixture.state()).filter(
        (item) =>
          item.PK === `GRANT#${grantId}` ||
          item.SK === `GRANT#${grantId}` ||
          (item.grant_id === grantId && !String(item.PK).startsWith('AUTHCODE#')),
      ),
    ).toEqual([]);
    const after = await fixture.state();
    expect(await revokeGrantFamily(fixture.ctx(), grantId)).toBe(false);
    expect(await fixture.state()).toEqual(after);
  });
});

describe('Approve under a fault at every store step, then the person clicks again', () => {
  // The store calls of one Approve: the snapshot read, then the transaction (decision + grant + code).
  for (const [index, scenario] of scenariosFor(['TransactGetItems', 'TransactWriteItems']).entries()) {
    it(`${scenario.title}: one grant, one code, and the retry answers the redirect a clean Approve answers`, async () => {
      const { secret, clientId } = await consentFor(`fault-${index}`);
      const fault = scenario.fault === undefined ? undefined : injectStoreFault(client(), scenario.fault);
      const first = await answerConsent(fixture.ctx(), oauth, person, secret, true).catch((error: unknown) => error);
      fault?.remove();
      if (scenario.fault !== undefined && scenario.fault.moment !== 'sdk-resend')
        expect(first).toMatchObject({ code: 'store_unavailable', retryable: true });
      const retry = await answerConsent(fixture.ctx(), oauth, person, secret, true);
      if (!(first instanceof Error)) expect(retry).toEqual(first);
      expect(new URL(retry.redirectTo).searchParams.get('code')).toMatch(/^lba_/);
      const stored = (await fixture.state()).filter(
        (item) => item.client_id === clientId && /^(GRANT|AUTHCODE|ACCOUNT|CONSENT)#/.test(String(item.PK)),
      );
      expect(stored.map((item) => `${String(item.PK).split('#')[0]}/${String(item.SK).split('#')[0]}`).sort()).toEqual([
        'ACCOUNT/GRANT',
        'AUTHCODE/META',
        'CONSENT/META',
        'GRANT/META',
      ]);
      expect(stored.find((item) => String(item.PK).startsWith('CONSENT#'))).toMatchObject({ decision: 'approved' });
    });
  }
});
