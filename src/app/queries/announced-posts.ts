// The posts of the Bluesky feed generator (getFeedSkeleton): the announcement posts of listed
// stories — public, not hidden, and whose announcement is posted (bsky_uri is an at-uri) —
// newest story first. The same read pipeline as the public feed (month shards of GSI1 ->
// BatchGetItem of META -> rules), so a hidden or private story (whose post is deleted) and a
// story still waiting for its post are never listed; the cursor is the feed's own.
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { parseInput } from '../parse-input.ts';
import { canSee } from '../story-access.ts';
import { announceState } from './announce-state.ts';
import { feedWalk, hydrate } from './list-stories.ts';

export const ANNOUNCED_POSTS = 'get_feed_skeleton';
export const DEFAULT_SKELETON_LIMIT = 50;
export const MAX_SKELETON_LIMIT = 100;
/** Skeleton rounds per page; stories without a post are skipped and refilled a bounded number of times. */
const MAX_FILL_ROUNDS = 4;

export const announcedPostsInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_SKELETON_LIMIT).optional(),
  cursor: z.string().max(2048).optional(),
});

export interface AnnouncedPosts {
  posts: string[];
  cursor?: string;
}

export async function announcedPosts(ctx: AppContext, raw: unknown = {}): Promise<AnnouncedPosts> {
  const input = parseInput(announcedPostsInputSchema, raw, ANNOUNCED_POSTS);
  const limit = input.limit ?? DEFAULT_SKELETON_LIMIT;
  const walk = await feedWalk(ctx, input.cursor);
  const posts: string[] = [];
  for (let round = 0; round < MAX_FILL_ROUNDS && posts.length < limit; round += 1) {
    const entries = await walk.next(limit - posts.length);
    if (entries.length === 0) break;
    for (const meta of await hydrate(ctx, entries)) {
      const announce = announceState(meta.announce);
      if (canSee(meta, undefined) && announce.state === 'posted' && announce.uri !== undefined) posts.push(announce.uri);
    }
  }
  const cursor = walk.cursor();
  return { posts, ...(cursor === undefined ? {} : { cursor }) };
}
