// What get_story tells a story's author about its moderation (docs/moderation.md): the state, the
// reasons readers gave, since when, the operator's reason when an operator acted, the author's
// appeal, and how to ask for a review. Nobody else sees it: a held story is not_found to everyone
// but its author, and who flagged it (or which operator acted) is never shown.
import { z } from 'zod';
import { FLAG_REASONS } from '../../store/story/flag-items.ts';
import { MODERATION_STATES, type ModerationState } from '../../store/story/moderation-state.ts';
import { APPEAL_TEXT } from './quarantine.ts';

export const moderationViewSchema = z
  .object({
    state: z
      .enum(MODERATION_STATES)
      .describe('quarantined: held for review, out of every list and off Bluesky; restored: an operator reviewed and lifted the hold.'),
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

export function moderationView(state: ModerationState): ModerationView {
  return {
    state: state.state,
    reasons: [...state.reasons],
    since: state.since,
    ...(state.reason === undefined ? {} : { reason: state.reason }),
    ...(state.appeal === undefined ? {} : { appealed: { note: state.appeal.note, at: state.appeal.at } }),
    appeal: APPEAL_TEXT,
  };
}
