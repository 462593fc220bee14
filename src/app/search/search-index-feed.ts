// What feeds a search index (docs/design.md#search): a first build from a walk of the feed index
// (keys-only Queries of each month shard, never a Scan), and the change log applied past a
// watermark. Both re-read each story as it is now (readSearchableStories) and add or drop it, so
// applying a change twice, or two changes out of order, leaves the same index.
import { feedMonthsKey, feedPartition } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { readSearchLog, SEARCH_LOG_OVERLAP_MS, type SearchLogEntry } from '../../store/search/search-log.ts';
import { readSearchableStories } from '../../store/search/searchable-stories.ts';
import { monthsOf } from '../../store/story/feed-months.ts';
import { queryIndex } from '../../store/story/story-index-query.ts';
import type { AppContext } from '../context/app-context.ts';
import type { StoryIndex } from './story-index.ts';

/** Feed entries per Query while building: keys only, so a page is small. */
const FEED_PAGE = 1000;
/** Stories re-read per BatchGetItem round (two keys each, four batches in flight). */
const REREAD_CHUNK = 200;

/** Re-reads the stories and puts or removes each; how many changed the index. */
export async function applySlugs(ctx: AppContext, index: StoryIndex, slugs: Iterable<string>): Promise<number> {
  const all = [...new Set(slugs)];
  let changed = 0;
  for (let start = 0; start < all.length; start += REREAD_CHUNK) {
    const read = await readSearchableStories(ctx.store, all.slice(start, start + REREAD_CHUNK));
    for (const [slug, story] of read) if (story === undefined ? index.remove(slug) : index.put(story)) changed += 1;
  }
  return changed;
}

/** Every listed story, from the feed index; how many were indexed. */
export async function buildFromFeed(ctx: AppContext, index: StoryIndex): Promise<number> {
  for (const month of monthsOf(await readItem(ctx.store, feedMonthsKey))) {
    let before: string | undefined;
    for (;;) {
      const slice = await queryIndex(ctx.store, 'feed', { partition: feedPartition(month), before, limit: FEED_PAGE });
      await applySlugs(
        ctx,
        index,
        slice.entries.map((entry) => entry.key.PK.slice('STORY#'.length)),
      );
      if (!slice.more) break;
      before = slice.entries.at(-1)?.sort;
    }
  }
  return index.size;
}

/**
 * Where a reader is in the log: everything written before `watermark` is applied, and the entries
 * since `watermark − overlap` it has applied.
 */
export interface LogPosition {
  watermark: number;
  applied: ReadonlyMap<string, number>;
}

export const startOfLog = (watermark: number): LogPosition => ({ watermark, applied: new Map() });

export interface LogApplied {
  position: LogPosition;
  /** Entries read that this reader had not applied. */
  entries: number;
  /** Stories whose indexed text changed (added, replaced or dropped). */
  changed: number;
  /** False when `maxEntries` stopped the read: more of the log waits. */
  complete: boolean;
}

/**
 * Applies the log written since the position (less SEARCH_LOG_OVERLAP_MS, skipping what was
 * applied already), plus `extra` slugs (this process's own writes). The new watermark is the
 * read's start, or the last entry read when `maxEntries` cut the read short.
 */
export async function applySearchLog(
  ctx: AppContext,
  index: StoryIndex,
  position: LogPosition,
  options: { maxEntries: number; extra?: Iterable<string> },
): Promise<LogApplied> {
  const readStart = ctx.store.now();
  const read = await readSearchLog(ctx.store, position.watermark - SEARCH_LOG_OVERLAP_MS, options.maxEntries, (id) =>
    position.applied.has(id),
  );
  const fresh = read.entries;
  const changed = await applySlugs(ctx, index, [...fresh.map((entry) => entry.slug), ...(options.extra ?? [])]);
  const watermark = read.complete ? readStart : Math.max(position.watermark, (read.entries.at(-1) as SearchLogEntry).atMs);
  const applied = new Map([...position.applied].filter(([, atMs]) => atMs >= watermark - SEARCH_LOG_OVERLAP_MS));
  for (const entry of fresh) applied.set(entry.id, entry.atMs);
  return { position: { watermark, applied }, entries: fresh.length, changed, complete: read.complete };
}
