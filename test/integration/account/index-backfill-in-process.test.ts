// The account index backfill run in process (design §21, src/app/account/backfill-account-index.ts):
// drift between the index and the items it points to — a report withdrawn between the Scan and the
// write, an account deleted meanwhile — gets no pointer; a Scan in small pages writes what one page
// does and reports progress after every page.
import { describe, expect, it } from 'vitest';
import { backfillAccountIndex, type IndexBackfill } from '../../../src/app/account/backfill-account-index.ts';
import { ensureAccount } from '../../../src/app/accounts.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
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
    expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 2, already_indexed: 0, written: 1, gone: 1 });
    expect((await indexItems(ann.account)).map((item) => item.SK)).toEqual([`ONSTORY#${slug}`]);
    // Twice: nothing left to write.
    expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 1, already_indexed: 1, written: 0, gone: 0 });
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
