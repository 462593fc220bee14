// Who may see and change a story. Private and hidden stories are not_found to everyone but their
// author (never `forbidden` for what the caller may not see); visible ones refuse non-authors'
// author-only writes with `forbidden`.
import { forbidden, notFound } from '../../domain/errors.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { Caller } from '../context/app-context.ts';

export function canSee(meta: StoryMeta, caller: Caller | undefined): boolean {
  if (caller !== undefined && meta.author === caller.account) return true;
  return meta.visibility === 'public' && !meta.hidden;
}

/** The story, if this caller may see it; not_found otherwise. */
export function visibleStory(meta: StoryMeta | undefined, slug: string, caller: Caller | undefined): StoryMeta {
  if (meta === undefined || !canSee(meta, caller)) throw notFound(slug);
  return meta;
}

/** The story, if this caller is its author. */
export function ownStory(meta: StoryMeta | undefined, slug: string, caller: Caller, action: string): StoryMeta {
  const story = visibleStory(meta, slug, caller);
  if (story.author !== caller.account) {
    throw forbidden(
      `Only the author of "${slug}" can ${action}. To add what you learned, use report_reproduction or report_check instead.`,
      { slug },
    );
  }
  return story;
}
