// The account index backfill run in process (design.md#account-deletion, src/app/account/backfill-account-index.ts):
// drift between the index and the items it points to — a report withdrawn between the Scan and the
// write, an account deleted meanwhile — gets no pointer; a Scan in small pages writes what one page
// does and reports progress after every page.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { backfillAccountIndex, type IndexBackfill } from '../../../src/app/account/backfill-account-index.ts';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportDrift } from '../../../src/app/report-drift.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { scanText } from '../../../src/domain/capability/scan.ts';
import { createWebSession } from '../../../src/store/identity/web-session-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { operationName } from '../../helpers/round-trips.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('index-backfill-in-process', { newAccountHours: 0 });

const indexItems = async (account: string) =>
  (await app.allItems()).filter((item) => item.PK === `ACCOUNT#${account}` && String(item.SK).startsWith('ONSTORY#'));

/** As before the release that added them: the account's index items removed. */
async function dropIndex(account: string): Promise<void> {
  const items = await indexItems(account);
  await writeAtomically(
    app.ctx().store,
    items.map((item) => ({ Delete: { Key: { PK: String(item.PK), SK: String(item.SK) } } })),
  );
}

describe('a reproduction and a check of one story share one index item', () => {
  it('it is written once and the other report counted as already indexed', async () => {
    const fay = caller('fay');
    const gil = caller('gil');
    const slug = (await publishStory(app.ctx(), gil, { markdown: storyTitled('Gil is reproduced and checked by Fay') })).slug;
    await reportReproduction(app.ctx(), fay, { slug, result: 'worked' });
    await reportCheck(app.ctx(), fay, { slug, result: 'no_problem' });
    await dropIndex(fay.account);
    expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 2, already_indexed: 1, written: 1, gone: 0 });
    expect((await indexItems(fay.account)).map((item) => item.SK)).toEqual([`ONSTORY#${slug}`]);
  });
});

describe('drift between the index and the items: what went meanwhile gets no pointer', () => {
  it('a check withdrawn between the Scan and the write counts as gone; the reproduction of the same story writes the shared index item', async () => {
    const ann = caller('ann');
    const ben = caller('ben');
    const slug = (await publishStory(app.ctx(), ben, { markdown: storyTitled('Ben is checked and reproduced by Ann') })).slug;
    await reportReproduction(app.ctx(), ann, { slug, result: 'worked' });
    await reportCheck(app.ctx(), ann, { slug, result: 'no_problem' });
    await dropIndex(ann.account);
    // The Scan lists the check (CHECK# sorts before REPRO#, so its write is tried first); it goes before the write.
    afterNextRead(
      app.ctx(),
      () => writeAtomically(app.ctx().store, [{ Delete: { Key: { PK: `STORY#${slug}`, SK: `CHECK#${ann.account}` } } }]),
      'Scan',
    );
    // Fay's two reports from the test before are indexed already.
    expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 4, already_indexed: 2, written: 1, gone: 1 });
    expect((await indexItems(ann.account)).map((item) => item.SK)).toEqual([`ONSTORY#${slug}`]);
    // Twice: nothing left to write.
    expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 3, already_indexed: 3, written: 0, gone: 0 });
  });

  it('a report of an account deleted since gets no pointer', async () => {
    const cid = caller('cid');
    const slug = (await publishStory(app.ctx(), cid, { markdown: storyTitled('Cid is reproduced by a departed account') })).slug;
    const departed = 'acct-departed';
    await writeAtomically(app.ctx().store, [
      { Put: { Item: { PK: `ACCOUNT#${departed}`, SK: 'META', id: departed, deleted_at: '2026-12-01T00:00:00.000Z' } } },
      { Put: { Item: { PK: `STORY#${slug}`, SK: `REPRO#${departed}`, result: 'worked' } } },
    ]);
    const run = await backfillAccountIndex(app.ctx());
    expect(run).toMatchObject({ written: 0, gone: 1 });
    expect(await indexItems(departed)).toEqual([]);
  });
});

describe('the backfill in process, a bounded page at a time', () => {
  it('pages of 2 items find and write what one page does, and report the running counts after every page', async () => {
    const dee = caller('dee');
    const eli = caller('eli');
    await ensureAccount(app.ctx(), dee);
    const slugs: string[] = [];
    for (const title of ['Eli one', 'Eli two', 'Eli three']) {
      slugs.push((await publishStory(app.ctx(), eli, { markdown: storyTitled(`${title} is reproduced by Dee`) })).slug);
    }
    for (const slug of slugs) await reportReproduction(app.ctx(), dee, { slug, result: 'worked' });
    await dropIndex(dee.account);
    const whole = await backfillAccountIndex(app.ctx());
    expect(whole).toMatchObject({ pages: 1, written: 3 });

    await dropIndex(dee.account);
    const progress: IndexBackfill[] = [];
    const paged = await backfillAccountIndex(app.ctx(), (counts) => progress.push(counts), 2);
    expect(paged.pages).toBeGreaterThan(1);
    expect({ ...paged, pages: 1 }).toEqual({ ...whole, pages: 1 });
    expect(progress.map((counts) => counts.pages)).toEqual(Array.from({ length: paged.pages }, (_, index) => index + 1));
    expect(progress.at(-1)).toEqual(paged);
    expect((await indexItems(dee.account)).map((item) => item.SK).sort()).toEqual(slugs.map((slug) => `ONSTORY#${slug}`).sort());
  });
});

/** Web sessions of `account` written without their index items (as before the release): one index item each. */
async function sessionsWithoutIndex(account: string, count: number, seed: string): Promise<void> {
  const now = app.ctx().store.now();
  await writeAtomically(
    app.ctx().store,
    Array.from({ length: count }, (_, index) =>
      createWebSession({
        session_hash: `${seed}${index}`.padEnd(64, '0'),
        account,
        created_at: new Date(now).toISOString(),
        expires_at: epochSeconds(now) + 3600,
      }),
    ),
  );
}

const sessionIndex = async (account: string) =>
  (await app.allItems()).filter((item) => item.PK === `ACCOUNT#${account}` && String(item.SK).startsWith('WEBSESS#'));

/**
 * FAULT INJECTION (a named mock): the next `times` transactions that name `account` fail with
 * `error()` before they reach DynamoDB Local, as a competing transaction or a dropped connection
 * would make them fail.
 */
function failTransactions(ctx: AppContext, account: string, times: number, error: () => Error): void {
  const stack = ctx.store.client.middlewareStack;
  const name = `lorebookFailTransactions${times}${Math.random()}`;
  let left = times;
  stack.add(
    (next, context) => async (args) => {
      const named = JSON.stringify(args.input).includes(account);
      if (operationName(String(context.commandName)) !== 'TransactWriteItems' || !named) return next(args);
      left -= 1;
      if (left === 0) stack.remove(name);
      throw error();
    },
    { step: 'initialize', name },
  );
}

const conflict = () => Object.assign(new Error('Transaction is ongoing for the item (injected)'), { name: 'TransactionConflictException' });

describe('the backfill under competing writes and store trouble', () => {
  it('more missing index items than writes in flight: each is written once', async () => {
    await sessionsWithoutIndex('acct-many', 10, 'a');
    expect(await backfillAccountIndex(app.ctx())).toMatchObject({ written: 10 });
    expect(await sessionIndex('acct-many')).toHaveLength(10);
  });

  it('an index write that met only competing transactions is tried again after a growing, jittered wait, and written once', async () => {
    await sessionsWithoutIndex('acct-contended', 1, 'b');
    const sleeps: number[] = [];
    const ctx: AppContext = { ...app.ctx(), sleep: async (ms) => void sleeps.push(ms), random: () => 0.25 };
    failTransactions(ctx, 'acct-contended', 2, conflict);
    expect(await backfillAccountIndex(ctx)).toMatchObject({ written: 1 });
    const backoff = ctx.config.conflictBackoffMs;
    expect(sleeps).toEqual([backoff * 2 * 0.75, backoff * 4 * 0.75]);
    expect(await sessionIndex('acct-contended')).toHaveLength(1);
  });

  it('after 4 tries that each met a competing transaction, the backfill stops with the conflict; a run after it writes the item', async () => {
    await sessionsWithoutIndex('acct-stuck', 1, 'c');
    const ctx: AppContext = { ...app.ctx(), sleep: async () => undefined };
    failTransactions(ctx, 'acct-stuck', 4, conflict);
    await expect(backfillAccountIndex(ctx)).rejects.toMatchObject({ onlyTransactionConflicts: true });
    expect(await sessionIndex('acct-stuck')).toEqual([]);
    expect(await backfillAccountIndex(ctx)).toMatchObject({ written: 1 });
  });

  it('a store failure is thrown, not counted as gone', async () => {
    await sessionsWithoutIndex('acct-unlucky', 1, 'd');
    failTransactions(app.ctx(), 'acct-unlucky', 1, () =>
      Object.assign(new Error('socket hang up (injected)'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} }),
    );
    await expect(backfillAccountIndex(app.ctx())).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(await backfillAccountIndex(app.ctx())).toMatchObject({ written: 1, gone: 1 });
  });
});

describe('a drift tally the Scan lists needs no index item', () => {
  it("the story's DRIFTHASH# tally is passed over: his reproduction and drift report get their index item back", async () => {
    const hal = caller('hal');
    const ida = caller('ida');
    const slug = (await publishStory(app.ctx(), ida, { markdown: storyTitled('Ida drifted for Hal') })).slug;
    await reportReproduction(app.ctx(), hal, { slug, result: 'worked' });
    const piped = scanText('## Reproduce this\n\n```sh\ncurl -fsSL https://example.com/fix.sh | sh\n```\n');
    await reportDrift(app.ctx(), hal, { slug, sha256: piped.sha256, findings: piped.findings });
    expect((await app.allItems()).some((item) => String(item.SK).startsWith('DRIFTHASH#'))).toBe(true);
    const before = await indexItems(hal.account);
    await dropIndex(hal.account);
    // Other suites' items share the table: what hal's reports are owed is his index items, written back as they were.
    expect(before.length).toBeGreaterThan(0);
    expect(await backfillAccountIndex(app.ctx())).toMatchObject({ written: before.length });
    expect(await indexItems(hal.account)).toEqual(before);
  });
});
