// `npm run bsky:backfill-documents` (docs/design.md#standard-site): every listed, posted story whose
// standard.site document is missing or behind its revision goes back on the announce queue, where
// the sweeper writes the document as it does after an edit. Two kinds of story need it: those
// announced before documents existed, and those whose document was given up on (refused, or out
// of attempts) once what refused it is fixed. The walk reads the feed index (keys-only Queries of
// each month, never a Scan) and re-reads each story's META; the queueing is one conditioned
// UpdateItem per story, so a second run, a run beside the sweeper or 16 at once queue a story once.
import type { AppContext } from '../app/context/app-context.ts';
import { feedMonthsKey, feedPartition, storyKey } from '../store/keys.ts';
import { pick, readItem, readItems } from '../store/read-items.ts';
import { isPostUri } from '../store/story/announce/items.ts';
import { queueOwedDocument } from '../store/story/document-items.ts';
import { monthsOf } from '../store/story/feed-months.ts';
import { queryIndex } from '../store/story/story-index-query.ts';
import { isListedPublicly, type StoryMeta, toStoryMeta } from '../store/story/story-items.ts';
import { writeIfStillSo } from './announce/fenced-write.ts';

/** Feed entries per Query: keys only, so a page is small; its METAs are read 100 to a BatchGetItem. */
const FEED_PAGE = 500;

export interface DocumentBackfillReport {
  /** Listed stories read. */
  stories: number;
  /** Stories owed a document and not on the queue, in feed order (newest first within a month). */
  owed: string[];
  /** Of those, the ones this run put on the queue (none on a dry run). */
  queued: string[];
  /** Owed when read, but no longer so when queued (an edit, a hide, the sweeper, another run). */
  changed: string[];
}

/** Listed, posted, not on the queue, and its document missing or at an older revision. */
export function owesDocument(meta: StoryMeta): meta is StoryMeta & { announce: { bsky_uri: string } } {
  return (
    isListedPublicly(meta.visibility, meta.hidden) &&
    isPostUri(meta.announce.bsky_uri) &&
    !meta.announce.queued &&
    meta.announce.doc_revision !== meta.revision
  );
}

export async function backfillDocuments(
  ctx: AppContext,
  options: { dryRun: boolean; log(line: string): void },
): Promise<DocumentBackfillReport> {
  const report: DocumentBackfillReport = { stories: 0, owed: [], queued: [], changed: [] };
  for (const month of monthsOf(await readItem(ctx.store, feedMonthsKey))) {
    let before: string | undefined;
    for (;;) {
      const slice = await queryIndex(ctx.store, 'feed', { partition: feedPartition(month), before, limit: FEED_PAGE });
      const keys = slice.entries.map((entry) => storyKey(entry.key.PK.slice('STORY#'.length)));
      const metas = await readItems(ctx.store, keys, { batchesInFlight: 4 });
      for (const key of keys) {
        const item = pick(metas, key);
        if (item === undefined) continue;
        const meta = toStoryMeta(item);
        if (!isListedPublicly(meta.visibility, meta.hidden)) continue;
        report.stories += 1;
        if (!owesDocument(meta)) continue;
        report.owed.push(meta.slug);
        if (options.dryRun) continue;
        const queued = await writeIfStillSo(ctx.store, [
          queueOwedDocument(meta.slug, meta.announce.bsky_uri, new Date(ctx.store.now()).toISOString()),
        ]);
        (queued ? report.queued : report.changed).push(meta.slug);
      }
      options.log(`${month}: ${report.stories} listed stories read so far, ${report.owed.length} owed a document`);
      if (!slice.more) break;
      before = slice.entries.at(-1)?.sort;
    }
  }
  return report;
}
