// The stories a feed may show, in the public feed's key order (GSI1 month shards, newest first;
// never a Scan): listed (public, not hidden), with a live announcement post, and kept by the
// feed's own rule (a tag, "needs reproducers"). At most `maxInspected` index entries are read
// for one page, so a rare tag costs a bounded walk and answers a short page whose cursor carries
// on; the cursor is the public feed's own, pointing at the last story handed out.
import { pick, readItems } from '../../store/read-items.ts';
import type { IndexEntry } from '../../store/story/story-index-query.ts';
import { type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import { canSee } from '../caller/story-access.ts';
import type { AppContext } from '../context/app-context.ts';
import { announceState } from '../queries/announce-state.ts';
import { encodeCursor } from '../queries/cursor.ts';
import { feedWalk } from '../queries/list-stories.ts';

export interface FeedStory {
  meta: StoryMeta;
  /** The story's announcement post (an at-uri). */
  post: string;
}

export interface FeedStoriesPage {
  stories: FeedStory[];
  cursor?: string;
}

/** Index entries hydrated per round: one BatchGetItem of META. */
const ROUND_ENTRIES = 100;

export interface FeedStoriesRequest {
  cursor: string | undefined;
  limit: number;
  /** The most index entries one page may read. */
  maxInspected: number;
  keep(meta: StoryMeta): boolean;
}

/** The post of a story a feed may show, or undefined. */
export function shownPost(meta: StoryMeta): string | undefined {
  const announce = announceState(meta.announce);
  return canSee(meta, undefined) && announce.state === 'posted' ? announce.uri : undefined;
}

/** A feed cursor that starts the next page strictly after this entry (its month, its key). */
const cursorAfter = (entry: IndexEntry): string => encodeCursor({ month: entry.sort.slice(0, 7), lastKey: entry.sort });

export async function feedStories(ctx: AppContext, request: FeedStoriesRequest): Promise<FeedStoriesPage> {
  const walk = await feedWalk(ctx, request.cursor);
  const stories: FeedStory[] = [];
  let inspected = 0;
  while (stories.length < request.limit && inspected < request.maxInspected) {
    const entries = await walk.next(Math.min(ROUND_ENTRIES, request.maxInspected - inspected));
    if (entries.length === 0) break;
    inspected += entries.length;
    const items = await readItems(
      ctx.store,
      entries.map((entry) => entry.key),
    );
    for (const [index, entry] of entries.entries()) {
      const item = pick(items, entry.key);
      if (item === undefined) continue;
      const meta = toStoryMeta(item);
      const post = shownPost(meta);
      if (post === undefined || !request.keep(meta)) continue;
      stories.push({ meta, post });
      // A full page mid-round: the rest of the round is not handed out, so start after this one.
      if (stories.length === request.limit && index < entries.length - 1) return { stories, cursor: cursorAfter(entry) };
    }
  }
  const cursor = walk.cursor();
  return { stories, ...(cursor === undefined ? {} : { cursor }) };
}
