// `npm run bsky:backfill-documents`'s walk (src/outbox/document-backfill.ts) against a real PDS on
// 127.0.0.1: stories announced while documents did not exist yet go back on the announce queue,
// and the next sweep gives each one document pointing at its post. Run twice, 16 at once, or
// again after the sweep, it queues a story once and the PDS holds one document per story.
import { describe, expect, it } from 'vitest';
import { DOCUMENT_COLLECTION } from '../../../integrations/bluesky/index.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { backfillDocuments } from '../../../src/outbox/document-backfill.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { type RepoRecord, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-document-backfill');
const bsky = useBluesky();
const alice = caller('alice');
const quiet = { dryRun: false, log: () => {} };

const documentsFor = async (slug: string): Promise<RepoRecord[]> =>
  (await bsky.records(DOCUMENT_COLLECTION)).filter((record) => (record.value.content as { slug?: string } | undefined)?.slug === slug);

/** Published and announced by an announcer from before documents: a post, no document, off the queue. */
async function announcedWithoutDocument(title: string): Promise<string> {
  const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
  const { slug } = await publishStory(ctx, alice, { markdown: storyTitled(title) });
  await idle();
  expect(await bsky.postsFor(slug)).toHaveLength(1);
  expect(await documentsFor(slug)).toEqual([]);
  return slug;
}

const metaOf = async (slug: string) => (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');

describe('stories announced before documents existed get one document each', () => {
  it('a dry run lists them and writes nothing; a run queues each once; the sweep writes one document per story, bskyPostRef at its post', async () => {
    const slugs = [
      await announcedWithoutDocument('Announced before documents one'),
      await announcedWithoutDocument('Announced before documents two'),
    ];
    const hidden = await announcedWithoutDocument('Announced then hidden before documents');
    await setVisibility(app.ctx(), alice, { slug: hidden, hidden: true });
    await sweepAnnouncements(app.ctx(), bsky.announcer());
    const before = await app.state();

    const dry = await backfillDocuments(app.ctx(), { dryRun: true, log: () => {} });
    expect([...dry.owed].sort()).toEqual([...slugs].sort());
    expect(dry.queued).toEqual([]);
    expect(await app.state()).toEqual(before);

    const first = await backfillDocuments(app.ctx(), quiet);
    expect([...first.queued].sort()).toEqual([...slugs].sort());
    const queued = await app.state();
    // The same run again: each story is on the queue already, so nothing is owed and nothing written.
    const again = await backfillDocuments(app.ctx(), quiet);
    expect(again).toMatchObject({ owed: [], queued: [], changed: [] });
    expect(await app.state()).toEqual(queued);

    await sweepAnnouncements(app.ctx(), bsky.announcer({}, { documents: true }));
    for (const slug of slugs) {
      const documents = await documentsFor(slug);
      expect(documents).toHaveLength(1);
      const post = (await bsky.postsFor(slug))[0];
      expect((documents[0] as RepoRecord).value.bskyPostRef).toMatchObject({ uri: post?.uri });
      expect(await metaOf(slug)).toMatchObject({ doc_revision: 1, bsky_uri: post?.uri });
      expect(await metaOf(slug)).not.toHaveProperty('GSI3PK');
    }
    expect(await documentsFor(hidden)).toEqual([]);

    // Documented now: a later run owes nothing.
    const after = await app.state();
    expect(await backfillDocuments(app.ctx(), quiet)).toMatchObject({ owed: [], queued: [] });
    expect(await app.state()).toEqual(after);
  });

  it('16 runs at once queue the story once between them, and the sweep writes one document', async () => {
    const slug = await announcedWithoutDocument('Sixteen backfills at once');
    const reports = await Promise.all(Array.from({ length: 16 }, () => backfillDocuments(app.ctx(), quiet)));
    expect(reports.filter((report) => report.queued.includes(slug))).toHaveLength(1);
    // The others read it owed before it was queued and found it changed, or read it queued already.
    for (const report of reports.filter((r) => !r.queued.includes(slug)))
      expect(report.owed.includes(slug)).toBe(report.changed.includes(slug));
    await sweepAnnouncements(app.ctx(), bsky.announcer({}, { documents: true }));
    await sweepAnnouncements(app.ctx(), bsky.announcer({}, { documents: true }));
    expect(await documentsFor(slug)).toHaveLength(1);
  });
});
