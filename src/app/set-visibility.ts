// set_visibility — author only, keyed by slug (design §4). An Update, never a Put (a Put would
// wipe counts and reproducers). A hidden story is a tombstone: it leaves the public feed and the
// announce queue; unhiding a public story lists it again and owes it an announcement if it never
// had one. The same call twice writes nothing and answers the same.
import { z } from 'zod';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { and, type Condition } from '../store/condition.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../store/feed-months.ts';
import { feedMonthsKey, storyKey } from '../store/keys.ts';
import { pick } from '../store/read-items.ts';
import { checkItem } from '../store/replace-by-key.ts';
import {
  ANNOUNCE_QUEUE_ATTRIBUTES,
  FEED_INDEX_ATTRIBUTES,
  announceQueueFields,
  feedIndexFields,
  isListedPublicly,
  toStoryMeta,
  type StoryMeta,
} from '../store/story-items.ts';
import { updateItem } from '../store/update-item.ts';
import type { AppContext, Caller } from './app-context.ts';
import { parseInput } from './parse-input.ts';
import { ownStory } from './story-access.ts';
import { announceAfterCommit } from './announce-after-commit.ts';
import { writeOnce, type Replayed, type WritePlan } from './write-once.ts';

export const setVisibilityInputSchema = z.strictObject({
  slug: z.string().describe('The slug of one of your stories (a key).'),
  hidden: z.boolean().describe('true hides the story from everyone but you; false shows it again.'),
  op_id: z.string().optional().describe('For apps replaying queued requests; a model should not invent one.'),
});

export type SetVisibilityInput = z.input<typeof setVisibilityInputSchema>;

export interface VisibilityOutcome {
  slug: string;
  hidden: boolean;
  visibility: 'public' | 'private';
}

export const SET_VISIBILITY_TOOL = 'set_visibility';

export async function setVisibility(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<VisibilityOutcome>> {
  const input = parseInput(setVisibilityInputSchema, raw, SET_VISIBILITY_TOOL);
  const slug = parseSlug(input.slug);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);

  return announceAfterCommit(ctx, await writeOnce(ctx, {
    tool: SET_VISIBILITY_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(SET_VISIBILITY_TOOL, { slug, hidden: input.hidden }),
    reads: [storyKey(slug), feedMonthsKey],
    plan(read, { now }): WritePlan<VisibilityOutcome> {
      const stored = pick(read, storyKey(slug));
      const meta = ownStory(stored === undefined ? undefined : toStoryMeta(stored), slug, caller, 'hide or unhide it');
      const outcome: VisibilityOutcome = { slug, hidden: input.hidden, visibility: meta.visibility };
      if (meta.hidden === input.hidden) return { outcome, actions: [], guards: [checkItem(storyKey(slug), asRead(meta))] };
      const actions = input.hidden ? planHide(meta) : planUnhide(meta, monthsOf(pick(read, feedMonthsKey)), new Date(now).toISOString());
      return { outcome, actions, guards: [] };
    },
  }));
}

/**
 * What the plan decided from: the hidden flag and the visibility it read. A competing
 * set_visibility or an edit that changes visibility in between fails this, and the re-plan
 * decides again from the new state (an unhide that read "private" must not leave a story that
 * became public out of the feed).
 */
function asRead(meta: StoryMeta): Condition {
  return {
    expression: '#hidden = :readHidden AND #visibility = :readVisibility',
    names: { '#hidden': 'hidden', '#visibility': 'visibility' },
    values: { ':readHidden': meta.hidden, ':readVisibility': meta.visibility },
  };
}

/**
 * Out of the feed and off the announce queue. Removing attributes that are absent changes
 * nothing, so both are removed whatever was read: a story only sits on the queue while it was
 * never posted, and a hidden story must never be announced.
 */
function planHide(meta: StoryMeta): WriteAction[] {
  // @NOTE deleting an already published Bluesky post is a later issue (design §4, set_visibility).
  return [
    updateItem(storyKey(meta.slug), { set: { hidden: true }, remove: [...FEED_INDEX_ATTRIBUTES, ...ANNOUNCE_QUEUE_ATTRIBUTES] }, asRead(meta)),
  ];
}

/** Back in the feed when public; a public story never posted owes its announcement again. */
function planUnhide(meta: StoryMeta, months: readonly string[], at: string): WriteAction[] {
  const set: Record<string, unknown> = { hidden: false };
  const actions: WriteAction[] = [];
  let condition = asRead(meta);
  if (isListedPublicly(meta.visibility, false)) {
    Object.assign(set, feedIndexFields(meta.slug, meta.published_at));
    if (!months.includes(feedMonth(meta.published_at))) actions.push(addFeedMonth(feedMonth(meta.published_at)));
    if (meta.bsky_uri === undefined && !meta.announce_queued) {
      Object.assign(set, announceQueueFields(meta.slug, at));
      // An announcer working from a stale queue entry may have posted it in between: a posted
      // story must not go back on the queue.
      condition = and(condition, { expression: 'attribute_not_exists(#bskyUri)', names: { '#bskyUri': 'bsky_uri' } });
    }
    // @NOTE re-announcing a post deleted by a hide is a later issue (design §4, set_visibility).
  }
  actions.push(updateItem(storyKey(meta.slug), { set }, condition));
  return actions;
}
