// appeal_moderation — the author asks an operator to review a hold (docs/moderation.md,
// design.md#operators-audit). Only the author, only while held, once per hold (the hold's `since` names it): the appeal
// is kept on META's `moderation` and the story's review-queue entry moves to the appeal's time, in
// one transaction conditioned on the hold read and on no appeal yet. The same note again answers
// the first appeal and writes nothing; another note for the same hold is `conflict`.
import { LorebookError } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { normaliseText } from '../domain/free-text.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { and } from '../store/condition.ts';
import { storyKey } from '../store/keys.ts';
import { leaveReviewQueue, type ReviewEntry, reviewQueueKey } from '../store/moderation/review-queue-items.ts';
import { pick } from '../store/read-items.ts';
import { checkItem, replaceItem } from '../store/replace-by-key.ts';
import { isQuarantined, type ModerationState, moderationAsRead } from '../store/story/moderation-state.ts';
import { toStoryMeta } from '../store/story/story-items.ts';
import { updateItem } from '../store/update-item.ts';
import { APPEAL_MODERATION_TOOL, type AppealOutcome, appealModerationInputSchema } from './appeal-moderation.contract.ts';
import { ownStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function appealModeration(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<AppealOutcome>> {
  const input = await parseWriteInput(appealModerationInputSchema, raw, APPEAL_MODERATION_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const note = normaliseText(input.note) ?? input.note;

  return writeOnce(ctx, {
    tool: APPEAL_MODERATION_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(APPEAL_MODERATION_TOOL, { slug, note }),
    reads: [storyKey(slug)],
    plan(read, { now }): WritePlan<AppealOutcome> {
      const stored = pick(read, storyKey(slug));
      const meta = ownStory(stored === undefined ? undefined : toStoryMeta(stored), slug, caller, 'appeal its hold');
      const held = meta.moderation;
      if (held === undefined || !isQuarantined(meta)) throw notHeld(slug);
      if (held.appeal !== undefined) {
        if (held.appeal.note !== note) throw alreadyAppealed(slug, held);
        return {
          outcome: { slug, since: held.since, ...held.appeal },
          actions: [],
          guards: [checkItem(storyKey(slug), moderationAsRead(held))],
        };
      }
      const appeal = { note, at: new Date(now).toISOString() };
      const appealed: ModerationState = { ...held, appeal };
      return {
        outcome: { slug, since: held.since, ...appeal },
        actions: [
          updateItem(
            storyKey(slug),
            { set: { moderation: appealed } },
            // One appeal per hold: two notes planned from the same read cannot both land.
            and(moderationAsRead(held), { expression: 'attribute_not_exists(#moderation.#appeal)', names: { '#appeal': 'appeal' } }),
          ),
          ...moveReviewEntry(held.since, {
            kind: 'appeal',
            slug,
            title: meta.title,
            author: meta.author,
            at: appeal.at,
            since: held.since,
            reasons: held.reasons,
            flags: held.flags,
            ...(held.reason === undefined ? {} : { reason: held.reason }),
            note,
          }),
        ],
        guards: [],
      };
    },
  });
}

/**
 * The hold's queue entry gives way to the appeal's. Replaced, not created once: the META update
 * in the same transaction already lets one appeal per hold through, and an appeal in the hold's
 * own millisecond lands on the hold's key.
 */
function moveReviewEntry(since: string, entry: ReviewEntry): WriteAction[] {
  const appealEntry = replaceItem({ ...reviewQueueKey(entry.at, entry.slug), ...entry });
  return since === entry.at ? [appealEntry] : [leaveReviewQueue(reviewQueueKey(since, entry.slug)), appealEntry];
}

function notHeld(slug: string): LorebookError {
  return new LorebookError('conflict', `"${slug}" is not held for review, so there is nothing to appeal.`, {
    retryable: false,
    details: { slug, reason: 'not_held' },
  });
}

function alreadyAppealed(slug: string, held: ModerationState): LorebookError {
  return new LorebookError(
    'conflict',
    `You already appealed this hold of "${slug}" at ${held.appeal?.at}; an operator reviews it. One appeal per hold: retrying with another note will not change this.`,
    { retryable: false, details: { slug, reason: 'already_appealed', since: held.since } },
  );
}
