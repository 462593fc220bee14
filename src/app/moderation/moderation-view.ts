// What get_story tells a story's author about its moderation (docs/moderation.md): the state, the
// reasons readers gave, since when, the operator's reason when an operator acted, the author's
// appeal, and how to ask for a review. Nobody else sees it: a held story is not_found to everyone
// but its author, and who flagged it (or which operator acted) is never shown.
import { z } from 'zod';
import { FLAG_REASONS } from '../../store/story/flag-items.ts';
import { MODERATION_STATES, type ModerationState } from '../../store/story/moderation-state.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import { HELD_BY, heldBecause, heldBy } from './held-by.ts';
import { APPEAL_TEXT } from './quarantine.ts';

export const moderationViewSchema = z
  .object({
    state: z
      .enum(MODERATION_STATES)
      .describe('quarantined: held for review, out of every list and off Bluesky; restored: an operator reviewed and lifted the hold.'),
    by: z.enum(HELD_BY).describe("Who held it: readers' flags, the instance's operator, or your account's suspension (ban)."),
    why: z.string().describe('Why it is held, in one sentence (for a ban: because your account is suspended).'),
    reasons: z.array(z.enum(FLAG_REASONS)).describe('The reasons readers gave, sorted; who flagged is not shown.'),
    since: z.string().describe('When it entered this state (ISO 8601): the hold an appeal names.'),
    reason: z.string().optional().describe("The operator's reason, when an operator held or restored it."),
    appealed: z
      .object({ note: z.string(), at: z.string() })
      .optional()
      .describe('Your appeal of this hold (appeal_moderation), once sent.'),
    appeal: z.string().describe('How to ask for a review.'),
  })
  .describe('Only on your own story, and only once it was held for review (docs/moderation.md).');

export type ModerationView = z.output<typeof moderationViewSchema>;

export function moderationView(meta: Pick<StoryMeta, 'moderation' | 'ban_hold'> & { moderation: ModerationState }): ModerationView {
  const state = meta.moderation;
  const by = heldBy(meta);
  return {
    state: state.state,
    by,
    why: state.state === 'restored' ? "The instance's operator reviewed it and lifted the hold." : heldBecause(by),
    reasons: [...state.reasons],
    since: state.since,
    ...(state.reason === undefined ? {} : { reason: state.reason }),
    ...(state.appeal === undefined ? {} : { appealed: { note: state.appeal.note, at: state.appeal.at } }),
    appeal: APPEAL_TEXT,
  };
}
