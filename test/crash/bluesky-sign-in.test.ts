// recordBlueskySignIn under a fault at every store step of a first sign-in, then the retry a
// person makes by signing in again: one account and one handle item, created when the write
// first landed, whatever failed where.
import { describe, expect, it } from 'vitest';
import { recordBlueskySignIn } from '../../src/app/sign-in/bluesky-sign-in.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { type FaultMoment, injectStoreFault } from '../helpers/inject-store-fault.ts';

const app = useAppFixture('crash-bluesky-sign-in');

/** A first sign-in: the pre-read, the snapshot, then the account and handle in one transaction. */
const STEPS = ['BatchGetItem', 'TransactGetItems', 'TransactWriteItems'] as const;
const cases: { call: number; moment: FaultMoment; applied: boolean }[] = [
  { call: 0, moment: 'before', applied: false },
  { call: 1, moment: 'before', applied: false },
  { call: 2, moment: 'before', applied: false },
  { call: 2, moment: 'response-lost', applied: true },
  { call: 2, moment: 'sdk-resend', applied: true },
];

describe('recordBlueskySignIn: a fault at every store step, then signing in again, ends as one clean sign-in', () => {
  cases.forEach(({ call, moment, applied }, index) => {
    it(`${moment} at ${STEPS[call]}: ${applied ? 'the first write stands' : 'the retry is the first write'}`, async () => {
      const did = `did:plc:crash${String(index).padStart(19, '0')}`;
      const handle = `crash-${index}.test`;
      const ctx = app.ctx();
      const fault = injectStoreFault(ctx.store.client, { call, moment });
      const firstFrom = ctx.store.now();
      const first = await recordBlueskySignIn(ctx, { did, handle }).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      const firstTo = ctx.store.now();
      fault.remove();
      expect(fault.firedOn()).toBe(STEPS[call]);
      if (moment === 'sdk-resend') expect(first).toMatchObject({ answer: { created: true } });
      else expect(first).toMatchObject({ error: { code: 'store_unavailable', retryable: true } });

      app.advance(60 * 60 * 1000);
      const retry = await recordBlueskySignIn(ctx, { did, handle });
      expect(retry.created).toBe(!applied);
      const items = (await app.allItems()).filter((item) => item.PK === `ACCOUNT#${did}` || item.PK === `HANDLE#${handle}`);
      expect(items).toEqual([
        { PK: `ACCOUNT#${did}`, SK: 'META', id: did, handle, created_at: retry.account.created_at },
        { PK: `HANDLE#${handle}`, SK: 'META', handle, account: did, created_at: retry.account.created_at },
      ]);
      // Created at the first call when its write landed, at the retry otherwise.
      const createdAt = Date.parse(retry.account.created_at);
      expect(createdAt >= firstFrom && createdAt <= firstTo).toBe(applied);
    });
  });
});
