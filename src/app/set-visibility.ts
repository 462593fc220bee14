// set_visibility — author only, keyed by slug (docs/design.md#write-rules). An Update, never a Put (a Put would
// wipe counts and reproducers). A hidden story is a tombstone: it leaves the public feed, and the
// announce queue unless its post must be deleted; unhiding a public story lists it again and owes
// it an announcement if it never had one. The same call twice writes nothing and answers the same.
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { and, type Condition } from '../store/condition.ts';
import { feedMonthsKey, storyKey } from '../store/keys.ts';
import { pick } from '../store/read-items.ts';
import { checkItem } from '../store/replace-by-key.ts';
import { listAnnouncement, unlistAnnouncement } from '../store/story/announce/items.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../store/story/feed-months.ts';
import { isQuarantined } from '../store/story/moderation-state.ts';
import { FEED_INDEX_ATTRIBUTES, feedIndexFields, isListedPublicly, type StoryMeta, toStoryMeta } from '../store/story/story-items.ts';
import { updateItem } from '../store/update-item.ts';
import { ownStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { heldBy } from './moderation/held-by.ts';
import { heldForReview } from './moderation/held-for-review.ts';
import { SET_VISIBILITY_TOOL, setVisibilityInputSchema, type VisibilityOutcome } from './set-visibility.contract.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function setVisibility(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<VisibilityOutcome>> {
  const input = await parseWriteInput(setVisibilityInputSchema, raw, SET_VISIBILITY_TOOL, ctx);
  const slug = parseSlug(input.slug);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);

  return announceAfterCommit(
    ctx,
    await writeOnce(ctx, {
      tool: SET_VISIBILITY_TOOL,
      caller,
      opId,
      fingerprint: fingerprint(SET_VISIBILITY_TOOL, { slug, hidden: input.hidden }),
      reads: [storyKey(slug), feedMonthsKey],
      plan(read, { now }): WritePlan<VisibilityOutcome> {
        const stored = pick(read, storyKey(slug));
        const meta = ownStory(stored === undefined ? undefined : toStoryMeta(stored), slug, caller, 'hide or unhide it');
        if (!input.hidden && isQuarantined(meta)) throw heldForReview(slug, heldBy(meta));
        const outcome: VisibilityOutcome = { slug, hidden: input.hidden, visibility: meta.visibility };
        if (meta.hidden === input.hidden) return { outcome, actions: [], guards: [checkItem(storyKey(slug), asRead(meta))] };
        const at = new Date(now).toISOString();
        const actions = input.hidden ? planHide(meta, at) : planUnhide(meta, monthsOf(pick(read, feedMonthsKey)), at);
        return { outcome, actions, guards: [] };
      },
    }),
  );
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
 * Out of the feed. A story whose announcement never reached Bluesky leaves the announce queue
 * (a hidden story is never announced); one that was posted, or may have been, is queued due now
 * so the announcer deletes the post at its record key (docs/design.md#write-rules).
 */
function planHide(meta: StoryMeta, at: string): WriteAction[] {
  const queue = unlistAnnouncement(meta, at);
  return [
    updateItem(
      storyKey(meta.slug),
      { set: { hidden: true, ...queue.set }, remove: [...FEED_INDEX_ATTRIBUTES, ...queue.remove] },
      queue.condition === undefined ? asRead(meta) : and(asRead(meta), queue.condition),
    ),
  ];
}

/**
 * Back in the feed when public. A public story never posted owes its announcement again (a post
 * deleted after a hide left no marker, so it is announced again at the same record key); one
 * whose deletion was queued but has not run keeps its post, and leaves the queue.
 */
function planUnhide(meta: StoryMeta, months: readonly string[], at: string): WriteAction[] {
  const set: Record<string, unknown> = { hidden: false };
  const remove: string[] = [];
  const actions: WriteAction[] = [];
  let condition = asRead(meta);
  if (isListedPublicly(meta.visibility, false)) {
    Object.assign(set, feedIndexFields(meta.slug, meta.published_at));
    if (!months.includes(feedMonth(meta.published_at))) actions.push(addFeedMonth(feedMonth(meta.published_at)));
    // An announcer working from a stale queue entry may have posted (or claimed) in between:
    // the queue decision is conditioned on the marker it was made from.
    const queue = listAnnouncement(meta, at, meta.revision);
    Object.assign(set, queue.set);
    remove.push(...queue.remove);
    if (queue.condition !== undefined) condition = and(condition, queue.condition);
  }
  actions.push(updateItem(storyKey(meta.slug), remove.length > 0 ? { set, remove } : { set }, condition));
  return actions;
}
