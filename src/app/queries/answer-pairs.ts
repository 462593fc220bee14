// Answered fail stories, the read side (docs/design.md#answered-fail). A success story's `answers` come from
// its META's list, hydrated in the author BatchGetItem; a fail story's `answered_by` from its
// linked ANSWER# items (one bounded Query) and one BatchGetItem of those stories. Either side is
// shown only while the other is public, listed, of the right type and (for an answer) still names
// it: a hidden answer leaves the list at once, with nothing written.

import { revealForbiddenChars } from '../../domain/text-controls.ts';
import { type ItemKey, storyKey } from '../../store/keys.ts';
import { type ItemsByKey, pick, readItems } from '../../store/read-items.ts';
import { queryLinkedAnswers } from '../../store/story/answer-query.ts';
import { isListedPublicly, type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import type { AnswerLinkView } from '../contract/answer-link-schema.ts';
import { storyUrl } from '../story-content/content-write.ts';

/** The fail stories' META keys a success story's `answers` needs. */
export function answeredStoryKeys(meta: StoryMeta): ItemKey[] {
  return meta.type === 'success' ? (meta.answers ?? []).map(storyKey) : [];
}

export function answersOf(ctx: AppContext, meta: StoryMeta, items: ItemsByKey): AnswerLinkView[] | undefined {
  if (meta.type !== 'success') return undefined;
  return (meta.answers ?? []).flatMap((fail) => {
    const item = pick(items, storyKey(fail));
    const other = item === undefined ? undefined : toStoryMeta(item);
    return other !== undefined && other.type === 'fail' && isListedPublicly(other.visibility, other.hidden) ? [view(ctx, other)] : [];
  });
}

export async function readAnsweredBy(ctx: AppContext, meta: StoryMeta): Promise<AnswerLinkView[] | undefined> {
  if (meta.type !== 'fail') return undefined;
  const slugs = await queryLinkedAnswers(ctx.store, meta.slug);
  const items = await readItems(ctx.store, slugs.map(storyKey));
  return slugs.flatMap((slug) => {
    const item = pick(items, storyKey(slug));
    const other = item === undefined ? undefined : toStoryMeta(item);
    const stillAnswers = other?.answers?.includes(meta.slug) === true;
    return other !== undefined && stillAnswers && other.type === 'success' && isListedPublicly(other.visibility, other.hidden)
      ? [view(ctx, other)]
      : [];
  });
}

/** A linked story, its page as an absolute URL (an agent hands it to a person as it is). */
function view(ctx: AppContext, meta: StoryMeta): AnswerLinkView {
  const url = storyUrl(ctx, meta.slug);
  return { slug: meta.slug, title: revealForbiddenChars(meta.title), status: meta.status, url, story_url: url };
}
