// list_stories — newest first: the public feed, or one author's stories. The read pipeline:
// skeleton (keys from a keys-only GSI) -> hydrate (one BatchGetItem of META) -> rules (drop what
// this caller may not see, TTL-expired items) -> present (with handles in one more BatchGetItem).

import { authorPartition, feedMonthsKey, feedPartition } from '../../store/keys.ts';
import { pick, readItem, readItems } from '../../store/read-items.ts';
import { monthsOf } from '../../store/story/feed-months.ts';
import { type IndexEntry, type ListIndex, queryIndex } from '../../store/story/story-index-query.ts';
import { type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import { handlesFor } from '../account/accounts.ts';
import { canSee } from '../caller/story-access.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import { decodeAuthorCursor, decodeFeedCursor, encodeCursor } from './cursor.ts';
import { DEFAULT_LIST_LIMIT, LIST_STORIES, listStoriesInputSchema, type StoryList } from './list-stories.contract.ts';
import { presentSummary } from './present-story.ts';

/**
 * Skeleton rounds per page. Entries dropped by the rules (a lingering index entry, another
 * author's private stories) are refilled from older ones, a bounded number of times; after that
 * the page is short and its cursor carries on.
 */
const MAX_FILL_ROUNDS = 4;

export async function listStories(ctx: AppContext, caller: Caller | undefined, raw: unknown = {}): Promise<StoryList> {
  const input = parseInput(listStoriesInputSchema, raw, LIST_STORIES);
  const limit = input.limit ?? DEFAULT_LIST_LIMIT;
  const walk = input.author === undefined ? await feedWalk(ctx, input.cursor) : authorWalk(ctx, input.author, input.cursor);
  // The feed is the public view for everyone, the author included; an author list shows the
  // author all of their own stories and anyone else the public, unhidden ones.
  const visible = (meta: StoryMeta): boolean => canSee(meta, input.author === undefined ? undefined : caller);

  const page: StoryMeta[] = [];
  for (let round = 0; round < MAX_FILL_ROUNDS && page.length < limit; round += 1) {
    const entries = await walk.next(limit - page.length);
    if (entries.length === 0) break;
    page.push(...(await hydrate(ctx, entries)).filter(visible));
  }
  const handles = await handlesFor(
    ctx,
    page.map((meta) => meta.author),
  );
  const cursor = walk.cursor();
  return {
    stories: page.map((meta) => presentSummary(meta, handles, caller)),
    ...(cursor === undefined ? {} : { cursor }),
  };
}

/** Hydrate: one BatchGetItem of META for the entries, in index order; expired or gone items drop out. */
export async function hydrate(ctx: AppContext, entries: readonly IndexEntry[]): Promise<StoryMeta[]> {
  const items = await readItems(
    ctx.store,
    entries.map((entry) => entry.key),
  );
  return entries.flatMap((entry) => {
    const item = pick(items, entry.key);
    return item === undefined ? [] : [toStoryMeta(item)];
  });
}

/** A position in a newest-first list of index entries across one or more partitions. */
export interface Walk {
  /** Up to `count` further entries, in order; none only when nothing older remains. */
  next(count: number): Promise<IndexEntry[]>;
  /** Where the next page starts, or undefined when nothing older remains. */
  cursor(): string | undefined;
}

/**
 * Walks partitions in order: the first from `before` (the cursor) down, then each following one
 * from its newest entry. `more` from the skeleton query says whether a partition is exhausted,
 * so the last page carries no cursor that would lead to an empty one (unless every story left
 * in the older partitions is one the rules drop).
 */
function shardWalk(
  ctx: AppContext,
  index: ListIndex,
  partitions: readonly string[],
  start: string | undefined,
  cursorAt: (partition: number, before: string | undefined) => string,
): Walk {
  let current = 0;
  let before = start;
  return {
    async next(count) {
      const entries: IndexEntry[] = [];
      while (entries.length < count && current < partitions.length) {
        const slice = await queryIndex(ctx.store, index, {
          partition: partitions[current] as string,
          before,
          limit: count - entries.length,
        });
        entries.push(...slice.entries);
        if (slice.more) {
          before = (slice.entries.at(-1) as IndexEntry).sort;
        } else {
          current += 1;
          before = undefined;
        }
      }
      return entries;
    },
    cursor: () => (current < partitions.length ? cursorAt(current, before) : undefined),
  };
}

/** The public feed: month shards newest first, from the months item (no probing empty months). */
export async function feedWalk(ctx: AppContext, rawCursor: string | undefined): Promise<Walk> {
  const cursor = rawCursor === undefined ? undefined : decodeFeedCursor(rawCursor);
  const months = monthsOf(await readItem(ctx.store, feedMonthsKey)).filter((month) => cursor === undefined || month < cursor.month);
  if (cursor !== undefined) months.unshift(cursor.month);
  return shardWalk(ctx, 'feed', months.map(feedPartition), cursor?.lastKey, (shard, lastKey) =>
    // An undefined lastKey is left out by JSON: the next page starts at the top of that month.
    encodeCursor({ month: months[shard] as string, lastKey }),
  );
}

/** One author's stories: a single GSI2 partition. */
function authorWalk(ctx: AppContext, author: string, rawCursor: string | undefined): Walk {
  const cursor = rawCursor === undefined ? undefined : decodeAuthorCursor(rawCursor, author);
  return shardWalk(ctx, 'author', [authorPartition(author)], cursor?.lastKey, (_partition, lastKey) =>
    // Within one partition the walk only stops mid-partition, after at least one entry.
    encodeCursor({ author, lastKey: lastKey as string }),
  );
}
