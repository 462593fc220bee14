// A story as the public pages show it (docs/design.md#surfaces): anonymous, so a private story is not_found
// like an unknown one, and a hidden public story is a tombstone — its title and that its author
// withdrew it — rather than a 404, so a link someone shared still explains itself.
import { isLorebookError } from '../../domain/errors.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import { revealForbiddenChars } from '../../domain/text-controls.ts';
import { storyKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { isQuarantined } from '../../store/story/moderation-state.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import { isTombstone } from '../../store/story/story-tombstone.ts';
import type { AppContext } from '../context/app-context.ts';
import { type HeldBy, heldBy } from '../moderation/held-by.ts';
import type { StoryView } from './get-story.contract.ts';
import { getStory } from './get-story.ts';

export type StoryPage =
  | { kind: 'shown'; story: StoryView }
  | { kind: 'withdrawn'; slug: string; title: string }
  /** Held for review (docs/moderation.md), by readers' flags, an operator or a ban: neither title nor text is shown. */
  | { kind: 'held'; slug: string; by: HeldBy }
  /** Its author deleted their account (design.md#account-deletion): nothing of it is left to show. */
  | { kind: 'deleted'; slug: string };

export async function readStoryPage(ctx: AppContext, rawSlug: string): Promise<StoryPage> {
  const slug = parseSlug(rawSlug);
  try {
    return { kind: 'shown', story: await getStory(ctx, undefined, { slug }) };
  } catch (error) {
    if (!isLorebookError(error) || error.code !== 'not_found') throw error;
    // @NOTE only the not-found path reads META a second time: it tells a withdrawn story from a
    // private or unknown one, which stay not_found.
    const item = await readItem(ctx.store, storyKey(slug));
    if (item !== undefined && isTombstone(item)) return { kind: 'deleted', slug };
    const meta = item === undefined ? undefined : toStoryMeta(item);
    if (meta === undefined || meta.visibility !== 'public' || !meta.hidden) throw error;
    if (isQuarantined(meta)) return { kind: 'held', slug, by: heldBy(meta) };
    return { kind: 'withdrawn', slug, title: revealForbiddenChars(meta.title) };
  }
}
