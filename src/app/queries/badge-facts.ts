// What the badges count, read as an anonymous reader reads it: a story get_story shows to anyone,
// an author's public stories as /a/{handle} lists them. A story or handle that does not parse, is
// unknown, hidden or private is `undefined`, one answer for all, so a badge tells nothing more
// than the public pages do.
import type { Tier } from '../../domain/capability/categories.ts';
import { LorebookError } from '../../domain/errors.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import { storyKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { visibleStory } from '../caller/story-access.ts';
import type { AppContext } from '../context/app-context.ts';
import { authorByHandle } from './author-by-handle.ts';
import { MAX_LIST_LIMIT } from './list-stories.contract.ts';
import { listStories } from './list-stories.ts';

export interface StoryBadgeFacts {
  worked: number;
  tier: Tier | null;
  /** Changed since publish (design.md#drift). */
  changed: boolean;
}

/** One GetItem of the story's META (a badge is fetched far more often than a story is read), seen as an anonymous reader sees it. */
export async function storyBadgeFacts(ctx: AppContext, slug: string): Promise<StoryBadgeFacts | undefined> {
  return unlessAbsent(async () => {
    const stored = await readItem(ctx.store, storyKey(parseSlug(slug)));
    const meta = visibleStory(stored === undefined ? undefined : toStoryMeta(stored), slug, undefined);
    return { worked: meta.counts.worked, tier: meta.capability?.tier ?? null, changed: meta.drift !== undefined };
  });
}

/**
 * The worked reproductions of the author's newest public stories (one page of MAX_LIST_LIMIT, as
 * the author page's first page counts them): one Query and one BatchGetItem per badge view, not
 * a walk of every story.
 */
export async function authorBadgeWorked(ctx: AppContext, handle: string): Promise<number | undefined> {
  const author = await unlessAbsent(() => authorByHandle(ctx, handle));
  if (author === undefined) return undefined;
  const list = await listStories(ctx, undefined, { author: author.account, limit: MAX_LIST_LIMIT });
  return list.stories.reduce((sum, story) => sum + story.counts.worked, 0);
}

/** not_found and an unparsable key are "no such badge"; anything else (a store outage) stays an error. */
async function unlessAbsent<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof LorebookError && (error.code === 'not_found' || error.code === 'validation_failed')) return undefined;
    throw error;
  }
}
