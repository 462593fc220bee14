// Answered fail stories, the write side (docs/design.md#answered-fail). A public, listed success story that
// names a public, listed fail story in its narrative links the pair in its own publish or edit
// transaction: the success's META lists the fail slugs it answers now (`answers`), and each pair
// has an ANSWER item under the fail story, created once with the fail author's notification. An
// edit that no longer names a fail story sets its pair unlinked. The fail story's status does not
// matter, so closing it (`status: n/a`) before or after the answer ends in the same state.
import { namedStorySlugs } from '../../domain/story/answer-links.ts';
import type { ParsedStory } from '../../domain/story/story-types.ts';
import type { WriteAction } from '../../store/actions.ts';
import { answerKey, type ItemKey, storyKey } from '../../store/keys.ts';
import { type ItemsByKey, pick } from '../../store/read-items.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { answerStateOf, createAnswer, setAnswerLinked } from '../../store/story/answer-items.ts';
import { notificationItem } from '../../store/story/notification-items.ts';
import { isListedPublicly, type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import type { Caller } from '../context/app-context.ts';

/** The fail stories a story may answer: none unless it is a public success story. */
export function answerCandidates(slug: string, story: ParsedStory, baseUrl: string): string[] {
  if (story.frontMatter.type !== 'success' || story.frontMatter.visibility !== 'public') return [];
  return namedStorySlugs(story.narrative, baseUrl, slug);
}

/** What the plan reads for the candidates: each fail story's META and the pair's ANSWER item. */
export function answerReads(slug: string, candidates: readonly string[]): ItemKey[] {
  return candidates.flatMap((fail) => [storyKey(fail), answerKey(fail, slug)]);
}

export interface AnsweringStory {
  slug: string;
  title: string;
  /** When the success story was first published: the notification's time, the same on every landing. */
  published_at: string;
  hidden: boolean;
  /** The fail slugs its META lists now (empty on a first publish). */
  previous: readonly string[];
}

export interface AnswerLinkPlan {
  answers: string[];
  actions: WriteAction[];
}

export function planAnswerLinks(
  success: AnsweringStory,
  candidates: readonly string[],
  read: ItemsByKey,
  caller: Caller,
  at: string,
): AnswerLinkPlan {
  const targets: StoryMeta[] = [];
  if (!success.hidden) {
    for (const fail of candidates) {
      const item = pick(read, storyKey(fail));
      const meta = item === undefined ? undefined : toStoryMeta(item);
      if (meta !== undefined && meta.type === 'fail' && isListedPublicly(meta.visibility, meta.hidden)) targets.push(meta);
    }
  }
  const actions: WriteAction[] = [];
  for (const fail of targets) {
    const state = answerStateOf(read, fail.slug, success.slug);
    if (state === 'linked') continue;
    if (state === 'unlinked') {
      actions.push(setAnswerLinked(fail.slug, success.slug, true, at));
      continue;
    }
    actions.push(createAnswer({ fail: fail.slug, answer: success.slug, answer_author: caller.account, at }));
    // Created with the pair's item, once per pair: a later drop and re-link revives the item instead.
    if (fail.author !== caller.account) actions.push(createItem(notificationItem(answerNotice(fail, success, caller))));
  }
  const answers = targets.map((fail) => fail.slug);
  for (const dropped of success.previous) if (!answers.includes(dropped)) actions.push(setAnswerLinked(dropped, success.slug, false, at));
  return { answers, actions };
}

function answerNotice(fail: StoryMeta, success: AnsweringStory, caller: Caller) {
  return {
    recipient: fail.author,
    kind: 'answer' as const,
    story: fail.slug,
    story_title: fail.title,
    actor: caller.account,
    actor_handle: caller.handle,
    text: `${caller.handle} answered "${fail.title}" with "${success.title}" (/s/${success.slug}). If it solves it, you may close yours with status: n/a.`,
    // The pair decides the key: the success story's first publish time and its slug.
    at: success.published_at,
    discriminator: success.slug,
  };
}

/** The links of a new revision of an existing story. */
export function revisionAnswerLinks(
  meta: StoryMeta,
  story: ParsedStory,
  candidates: readonly string[],
  read: ItemsByKey,
  caller: Caller,
  at: string,
) {
  return planAnswerLinks(
    { slug: meta.slug, title: story.frontMatter.title, published_at: meta.published_at, hidden: meta.hidden, previous: meta.answers ?? [] },
    candidates,
    read,
    caller,
    at,
  );
}
