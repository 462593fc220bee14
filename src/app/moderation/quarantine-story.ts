// `moderate quarantine <slug> --reason` (docs/moderation.md, design.md#operators-audit): an operator holds a story
// for review, as enough flags would — hidden, off the feeds and Bluesky, the author told, on the
// review queue — with the operator's reason, in one transaction with its audit record. A story
// already held answers `changed: false` and writes nothing; a restored one may be held again.
import { fingerprint } from '../../domain/fingerprint.ts';
import type { WriteAction } from '../../store/actions.ts';
import { and, type Condition } from '../../store/condition.ts';
import { storyKey } from '../../store/keys.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { unlistAnnouncement } from '../../store/story/announce/items.ts';
import type { FlagReason } from '../../store/story/flag-items.ts';
import { isQuarantined, type ModerationState, moderationAsRead } from '../../store/story/moderation-state.ts';
import { FEED_INDEX_ATTRIBUTES, isListedPublicly, type StoryMeta } from '../../store/story/story-items.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext } from '../context/app-context.ts';
import { announceAfterCommit } from '../write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { auditRecord } from './audit-record.ts';
import { type OperatorOutcome, parseOperatorAction, storyToModerate } from './operator-action.ts';
import { APPEAL_TEXT, heldEntry, moderationNotice } from './quarantine.ts';

export const QUARANTINE_STORY = 'moderate_quarantine';

export async function quarantineStory(ctx: AppContext, raw: unknown): Promise<Replayed<OperatorOutcome>> {
  const action = await parseOperatorAction(raw, QUARANTINE_STORY, ctx);
  const { slug, reason, opId } = action;
  return announceAfterCommit(
    ctx,
    await writeOnce(ctx, {
      tool: QUARANTINE_STORY,
      caller: action.operator,
      opId,
      fingerprint: fingerprint(QUARANTINE_STORY, { slug, reason }),
      reads: [storyKey(slug)],
      plan(read, { now }): WritePlan<OperatorOutcome> {
        const meta = storyToModerate(pick(read, storyKey(slug)), slug);
        const answer = (changed: boolean, moderation: ModerationState): OperatorOutcome => ({
          slug,
          action: 'quarantine',
          changed,
          state: moderation.state,
          since: moderation.since,
          op_id: opId,
        });
        if (meta.moderation !== undefined && isQuarantined(meta)) {
          return {
            outcome: answer(false, meta.moderation),
            actions: [],
            guards: [checkItem(storyKey(slug), moderationAsRead(meta.moderation))],
          };
        }
        const at = new Date(now).toISOString();
        const moderation: ModerationState = {
          state: 'quarantined',
          reasons: [...new Set(Object.values(meta.flaggers ?? {}) as FlagReason[])].sort(),
          since: at,
          flags: meta.flag_count ?? 0,
          reason,
        };
        const actions: WriteAction[] = [
          hold(meta, moderation),
          moderationNotice(
            meta,
            moderation,
            `"${meta.title}" is held for review by the instance's operator: ${reason} It is out of the feeds and search, and its Bluesky post is being removed; you can still read and edit it. ${APPEAL_TEXT}`,
          ),
          heldEntry(meta, moderation),
          ...auditRecord(
            {
              action: 'quarantine',
              actor: action.operator.account,
              reason,
              target_kind: 'story',
              target: slug,
              changes: { hidden: [meta.hidden, true], moderation: [meta.moderation?.state ?? null, 'quarantined'] },
              op_id: opId,
              at,
            },
            storyKey(slug).PK,
          ),
        ];
        return { outcome: answer(true, moderation), actions, guards: [] };
      },
    }),
  );
}

/**
 * META hidden with the hold. A listed story also leaves the feed index and has its announce queue
 * decided as a hide decides it; one already unlisted (hidden by its author, private) keeps both.
 * Conditioned on the moderation state, the hidden flag and the visibility read.
 */
function hold(meta: StoryMeta, moderation: ModerationState): WriteAction {
  const asRead: Condition = and(moderationAsRead(meta.moderation), listingAsRead(meta));
  if (!isListedPublicly(meta.visibility, meta.hidden))
    return updateItem(storyKey(meta.slug), { set: { hidden: true, moderation } }, asRead);
  const queue = unlistAnnouncement(meta, moderation.since);
  return updateItem(
    storyKey(meta.slug),
    { set: { hidden: true, moderation, ...queue.set }, remove: [...FEED_INDEX_ATTRIBUTES, ...queue.remove] },
    queue.condition === undefined ? asRead : and(asRead, queue.condition),
  );
}

/** The hidden flag and visibility the plan read: an author's hide or edit in between re-plans. */
export function listingAsRead(meta: Pick<StoryMeta, 'hidden' | 'visibility'>): Condition {
  return {
    expression: '#hidden = :readHidden AND #visibility = :readVisibility',
    names: { '#hidden': 'hidden', '#visibility': 'visibility' },
    values: { ':readHidden': meta.hidden, ':readVisibility': meta.visibility },
  };
}
