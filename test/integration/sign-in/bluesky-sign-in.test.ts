// recordBlueskySignIn: the account (DID) and the handle items, safe on every sign-in, twice in a
// row and sixteen at once, and when two people race for one handle.
import { describe, expect, it } from 'vitest';
import { handlesFor } from '../../../src/app/account/accounts.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';

const app = useAppFixture('bluesky-sign-in');

const did = (name: string) => `did:plc:${name.padEnd(24, 'q')}`;

describe('recordBlueskySignIn', () => {
  it('twice in a row: the same answer (created only the first time) and nothing written the second time', async () => {
    const first = await recordBlueskySignIn(app.ctx(), { did: did('alice'), handle: 'alice.test' });
    expect(first).toEqual({ account: { id: did('alice'), handle: 'alice.test', created_at: expect.any(String) }, created: true });
    const state = await app.allItems();
    app.counter().reset();
    const second = await recordBlueskySignIn(app.ctx(), { did: did('alice'), handle: 'alice.test' });
    expect(second).toEqual({ account: first.account, created: false });
    expect(app.counter().writes()).toBe(0);
    expect(await app.allItems()).toEqual(state);
  });

  it('16 at once: one account, one handle item, every answer the same account', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => recordBlueskySignIn(app.ctx(), { did: did('bob'), handle: 'bob.test' })),
    );
    for (const answer of answers) expect(answer.account).toEqual(answers[0]?.account);
    expect(answers.filter((a) => a.created)).not.toHaveLength(0);
    const items = (await app.allItems()).filter((item) => item.PK === `ACCOUNT#${did('bob')}` || item.PK === 'HANDLE#bob.test');
    expect(items).toEqual([
      { PK: `ACCOUNT#${did('bob')}`, SK: 'META', id: did('bob'), handle: 'bob.test', created_at: answers[0]?.account.created_at },
      { PK: 'HANDLE#bob.test', SK: 'META', handle: 'bob.test', account: did('bob'), created_at: expect.any(String) },
    ]);
  });

  it('two people racing for one handle (16 sign-ins each): the handle item names one of them, and only that one shows it', async () => {
    const [a, b] = [did('carol-a'), did('carol-b')];
    const settled = await Promise.allSettled(
      Array.from({ length: 32 }, (_, i) => recordBlueskySignIn(app.ctx(), { did: i % 2 === 0 ? a : b, handle: 'carol.test' })),
    );
    // A sign-in that kept losing the race may answer the retryable `conflict`; nothing else.
    for (const outcome of settled) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'conflict' });
    const holder = (await app.allItems()).find((item) => item.PK === 'HANDLE#carol.test')?.account;
    expect([a, b]).toContain(holder);
    const handles = await handlesFor(app.ctx(), [a, b]);
    expect([...handles.values()].filter((handle) => handle === 'carol.test')).toHaveLength(1);
    expect(handles.get(String(holder))).toBe('carol.test');
  });
});
