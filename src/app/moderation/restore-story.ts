// `moderate restore <slug> --reason` (docs/moderation.md, design.md#operators-audit): an operator lifts a hold.
// State `restored`, shown again, and — when public — back in the feed index and owed its Bluesky
// announcement again, which the announcer posts at the same record key (the key is derived from
// the slug and the publish time, design.md#announcement), exactly as an unhide does. Off the review queue,
// the author told, one audit record, one transaction. Flags never hold a restored story again:
// the hold's write requires `moderation` absent. A story already restored answers
// `changed: false` and writes nothing; one never held is `conflict`.
import { fingerprint } from '../../domain/fingerprint.ts';
import type { WriteAction } from '../../store/actions.ts';
import { and } from '../../store/condition.ts';
import { feedMonthsKey, storyKey } from '../../store/keys.ts';
import { currentReviewKey, leaveReviewQueue } from '../../store/moderation/review-queue-items.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { listAnnouncement } from '../../store/story/announce/items.ts';
import { addFeedMonth, feedMonth, monthsOf } from '../../store/story/feed-months.ts';
import { type ModerationState, moderationAsRead } from '../../store/story/moderation-state.ts';
import { feedIndexFields, isListedPublicly, type StoryMeta } from '../../store/story/story-items.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext } from '../context/app-context.ts';
import { announceAfterCommit } from '../write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { auditRecord } from './audit-record.ts';
import { notHeld, type OperatorOutcome, parseOperatorAction, storyToModerate } from './operator-action.ts';
import { moderationNotice } from './quarantine.ts';
import { listingAsRead } from './quarantine-story.ts';

export const RESTORE_STORY = 'moderate_restore';

export async function restoreStory(ctx: AppContext, raw: unknown): Promise<Replayed<OperatorOutcome>> {
  const action = await parseOperatorAction(raw, RESTORE_STORY, ctx);
  const { slug, reason, opId } = action;
  return announceAfterCommit(
    ctx,
    await writeOnce(ctx, {
      tool: RESTORE_STORY,
      caller: action.operator,
      opId,
      fingerprint: fingerprint(RESTORE_STORY, { slug, reason }),
      reads: [storyKey(slug), feedMonthsKey],
      plan(read, { now }): WritePlan<OperatorOutcome> {
        const meta = storyToModerate(pick(read, storyKey(slug)), slug);
        const held = meta.moderation;
        if (held === undefined) throw notHeld(slug);
        const answer = (changed: boolean, moderation: ModerationState): OperatorOutcome => ({
          slug,
          action: 'restore',
          changed,
          state: moderation.state,
          since: moderation.since,
          op_id: opId,
        });
        if (held.state === 'restored') {
          return { outcome: answer(false, held), actions: [], guards: [checkItem(storyKey(slug), moderationAsRead(held))] };
        }
        const at = new Date(now).toISOString();
        const restored: ModerationState = { state: 'restored', reasons: held.reasons, since: at, flags: held.flags, reason };
        const actions: WriteAction[] = [
          ...lift(meta, held, restored, monthsOf(pick(read, feedMonthsKey))),
          leaveReviewQueue(currentReviewKey(slug, held)),
          moderationNotice(
            meta,
            restored,
            `"${meta.title}" is restored after review: ${reason} It is listed again${meta.visibility === 'public' ? ' and will be announced on Bluesky again' : ''}.`,
          ),
          ...auditRecord(
            {
              action: 'restore',
              actor: action.operator.account,
              reason,
              target_kind: 'story',
              target: slug,
              changes: { hidden: [meta.hidden, false], moderation: ['quarantined', 'restored'] },
              op_id: opId,
              at,
            },
            storyKey(slug).PK,
          ),
        ];
        return { outcome: answer(true, restored), actions, guards: [] };
      },
    }),
  );
}

/**
 * Shown again, as an unhide (set-visibility.ts) shows it: a public story gets its feed index and
 * month back, and its announce queue decided from the marker read, so an announcer that moved in
 * between makes this re-plan. Conditioned on the hold, the hidden flag and the visibility read.
 * A story its author's ban held loses `ban_hold`: the unban's sweep then passes it by.
 */
function lift(meta: StoryMeta, held: ModerationState, restored: ModerationState, months: readonly string[]): WriteAction[] {
  const set: Record<string, unknown> = { hidden: false, moderation: restored };
  // A restore during its author's ban stands: the ban no longer holds it, so the unban leaves it as the operator left it (design.md#bans).
  const remove: string[] = meta.ban_hold === undefined ? [] : ['ban_hold'];
  const actions: WriteAction[] = [];
  let condition = and(moderationAsRead(held), listingAsRead(meta));
  if (isListedPublicly(meta.visibility, false)) {
    Object.assign(set, feedIndexFields(meta.slug, meta.published_at));
    if (!months.includes(feedMonth(meta.published_at))) actions.push(addFeedMonth(feedMonth(meta.published_at)));
    const queue = listAnnouncement(meta, restored.since, meta.revision);
    Object.assign(set, queue.set);
    remove.push(...queue.remove);
    if (queue.condition !== undefined) condition = and(condition, queue.condition);
  }
  actions.push(updateItem(storyKey(meta.slug), remove.length > 0 ? { set, remove } : { set }, condition));
  return actions;
}
