// getFeedSkeleton for each of lorebook's feeds (design.md#feeds): the posts, each with the feedContext
// its interactions come back with, and the cursor of the next page. The main feed is the newest
// announced stories, a tag feed the newest of one tag — both in the public feed's key order, each
// page ranked by show-more / show-less — and "needs reproducers" the rotated candidates.
import { z } from 'zod';
import { type FeedDefinition, feedContext, MAIN_FEED, NEEDS_REPRODUCERS_FEED } from '../../domain/feed-generator.ts';
import { zeroTally } from '../../store/story/feed-tally-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import { rankByTally } from './feed-ranking.ts';
import { type FeedStory, feedStories } from './feed-stories.ts';
import { feedTallies } from './feed-tallies.ts';
import { decodeRotationCursor, encodeRotationCursor, reproducerCandidates, rotate, rotationSlot } from './needs-reproducers.ts';

const FEED_SKELETON = 'get_feed_skeleton';
export const DEFAULT_SKELETON_LIMIT = 50;
export const MAX_SKELETON_LIMIT = 100;
/** The main feed reads at most this many index entries per post asked for (private or unposted stories are skipped). */
const MAIN_ENTRIES_PER_POST = 4;
/** A tag feed reads at most this many index entries for one page, however rare the tag. */
const TAG_PAGE_ENTRIES = 400;

const feedSkeletonInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_SKELETON_LIMIT).optional(),
  cursor: z.string().max(2048).optional(),
});

export interface SkeletonItem {
  post: string;
  feedContext: string;
}

export interface Skeleton {
  feed: SkeletonItem[];
  cursor?: string;
}

const itemsOf = (feed: FeedDefinition, stories: readonly FeedStory[]): SkeletonItem[] =>
  stories.map((story) => ({ post: story.post, feedContext: feedContext(feed.id, story.meta.slug) }));

/** `viewer`: the DID of a verified service-auth JWT, when the request carried one; only "needs reproducers" reads it. */
export async function feedSkeleton(ctx: AppContext, feed: FeedDefinition, raw: unknown, viewer?: string): Promise<Skeleton> {
  const input = parseInput(feedSkeletonInputSchema, raw, FEED_SKELETON);
  const limit = input.limit ?? DEFAULT_SKELETON_LIMIT;
  if (feed.id === NEEDS_REPRODUCERS_FEED) return needsReproducersPage(ctx, feed, limit, input.cursor, viewer);

  const tag = feed.tag;
  const page = await feedStories(ctx, {
    cursor: input.cursor,
    limit,
    maxInspected: feed.id === MAIN_FEED ? MAIN_ENTRIES_PER_POST * limit : TAG_PAGE_ENTRIES,
    keep: (meta) => tag === undefined || meta.tags.includes(tag),
  });
  const tallies = await feedTallies(
    ctx,
    feed.id,
    page.stories.map((story) => story.meta.slug),
  );
  const ranked = rankByTally(page.stories, (story) => tallies.get(story.meta.slug) ?? zeroTally);
  return { feed: itemsOf(feed, ranked), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

async function needsReproducersPage(
  ctx: AppContext,
  feed: FeedDefinition,
  limit: number,
  rawCursor: string | undefined,
  viewer: string | undefined,
): Promise<Skeleton> {
  const cursor = rawCursor === undefined ? undefined : decodeRotationCursor(rawCursor);
  const slot = cursor?.slot ?? rotationSlot(ctx.store.now());
  const offset = cursor?.offset ?? 0;
  const candidates = await reproducerCandidates(ctx);
  const tallies = await feedTallies(
    ctx,
    feed.id,
    candidates.map((story) => story.meta.slug),
  );
  const ordered = rotate(candidates, viewer, slot, (story) => tallies.get(story.meta.slug) ?? zeroTally);
  const next = offset + limit;
  return {
    feed: itemsOf(feed, ordered.slice(offset, next)),
    ...(next < ordered.length ? { cursor: encodeRotationCursor({ slot, offset: next }) } : {}),
  };
}
