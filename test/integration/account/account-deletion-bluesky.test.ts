// Account deletion on Bluesky (design.md#account-deletion, issue 25): against the real test PDS, counting records
// with listRecords. Each story of a deleted account is tombstoned and queued for its post's
// deletion (the hide path's rule), so once the announcer and the sweeper have nothing due, the
// PDS holds no post and no standard.site document of it, while other accounts' posts stay.
import { describe, expect, it } from 'vitest';
import { DOCUMENT_COLLECTION } from '../../../integrations/bluesky/index.ts';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { type RepoRecord, TEST_ANNOUNCE_SETTINGS, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

// The finish waits for no grace here: no write races these deletions (the grace has its test in account-deletion.test.ts).
const app = useAppFixture('account-deletion-bluesky', { accountDeletionGraceSeconds: 0, newAccountHours: 0 });
const bsky = useBluesky();
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
const POST_COLLECTION = 'app.bsky.feed.post';
/** Words only alice's stories carry, to find any copy of her text left in the table. */
const ALICE_WORDS = 'Alice wrote this sentence about her lantern';
/** Sweeps before the test gives up on the queue draining (each one is also a step of the clock). */
const MAX_SWEEPS = 10;

const slugOfPost = (record: RepoRecord): string | undefined =>
  (record.value.embed as { external?: { uri?: string } } | undefined)?.external?.uri?.split('/s/')[1];
const slugOfDocument = (record: RepoRecord): string | undefined => (record.value.content as { slug?: string } | undefined)?.slug;

/** The slugs that have a post and a document on lorebook's announcing repo, read from the PDS itself. */
async function onThePds(): Promise<{ posts: string[]; documents: string[] }> {
  const posts = (await bsky.records(POST_COLLECTION)).map(slugOfPost);
  const documents = (await bsky.records(DOCUMENT_COLLECTION)).map(slugOfDocument);
  return { posts: posts.filter((slug) => slug !== undefined).sort(), documents: documents.filter((slug) => slug !== undefined).sort() };
}

async function meta(slug: string): Promise<Record<string, unknown>> {
  return (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META') as Record<string, unknown>;
}

describe("deleting an account takes its stories' posts and documents off Bluesky", () => {
  it("after the deletion and the sweeps, the PDS holds no post and no document of its stories; another account's stay; counts drop by exactly its reports", async () => {
    const announcer = bsky.announcer({}, { documents: true });
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    for (const person of [alice, bob, carol]) await ensureAccount(ctx, person);

    // 1. Alice publishes three public stories; the real announcer posts each and writes its document.
    const titles = ["Alice's lantern story one", "Alice's lantern story two", "Alice's lantern story three"];
    const aliceStories: string[] = [];
    for (const title of titles)
      aliceStories.push((await publishStory(ctx, alice, { markdown: storyTitled(title, { extra: ALICE_WORDS }) })).slug);
    const bobStories: string[] = [];
    for (const title of ["Bob's kept story one", "Bob's kept story two"])
      bobStories.push((await publishStory(ctx, bob, { markdown: storyTitled(title) })).slug);
    await idle();
    const everyone = [...aliceStories, ...bobStories].sort();
    expect(await onThePds()).toEqual({ posts: everyone, documents: everyone });

    // 2. Alice reproduces both of bob's stories and checks one; carol reproduces the first too.
    const [bob1, bob2] = bobStories as [string, string];
    await reportReproduction(ctx, carol, { slug: bob1, result: 'worked' });
    await reportReproduction(ctx, alice, { slug: bob1, result: 'worked' });
    await reportReproduction(ctx, alice, { slug: bob2, result: 'failed' });
    await reportCheck(ctx, alice, { slug: bob1, result: 'has_problem' });
    expect(await meta(bob1)).toMatchObject({ counts: { worked: 2, partial: 0, failed: 0, has_problem: 1, no_problem: 0 } });
    expect(await meta(bob2)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 1, has_problem: 0, no_problem: 0 } });

    // 3. The deletion, its steps to the end, then the announcer's attempts and sweeps until nothing is due.
    expect(await deleteAccount(ctx, alice, { confirm: 'alice.test' })).toMatchObject({ status: 'deleting' });
    expect(await deleteAccountSteps(ctx, alice.account, 10_000)).toMatchObject({ finished: true });
    await idle();
    let drained = false;
    for (let sweep = 0; sweep < MAX_SWEEPS && !drained; sweep += 1) {
      app.advance(TEST_ANNOUNCE_SETTINGS.staleClaimMs + 1);
      const report = await sweepAnnouncements(app.ctx(), announcer);
      drained = report.due === 0 && report.skipped.length === 0;
    }
    expect(drained).toBe(true);

    // 4. No post and no document of hers is left on the PDS; bob's both stay.
    expect(await onThePds()).toEqual({ posts: [...bobStories].sort(), documents: [...bobStories].sort() });
    // Her stories are tombstones: META only, hidden, no text, no author, off the announce queue.
    const items = await app.allItems();
    for (const slug of aliceStories) {
      const story = items.filter((item) => item.PK === `STORY#${slug}`);
      expect(story).toHaveLength(1);
      expect(story[0]).toMatchObject({ SK: 'META', slug, hidden: true, author: '', deleted_at: expect.any(String) });
      for (const field of ['title', 'summary', 'GSI1PK', 'GSI2PK', 'GSI3PK']) expect(story[0]).not.toHaveProperty(field);
    }
    // Bob's counts dropped by exactly her reproductions and her check; carol's reproduction stays.
    expect(await meta(bob1)).toMatchObject({
      counts: { worked: 1, partial: 0, failed: 0, has_problem: 0, no_problem: 0 },
      reproducers: [carol.account],
    });
    expect(await meta(bob2)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0, has_problem: 0, no_problem: 0 } });
    // A whole-table scan (op records included) holds none of her titles or words (the tombstone keeps
    // only the slug, made from the title, so the slug is never given out again: design.md#account-deletion).
    const scanned = items.map((item) => JSON.stringify(item));
    for (const words of [...titles, ALICE_WORDS]) expect(scanned.filter((item) => item.includes(words))).toEqual([]);
  });
});
