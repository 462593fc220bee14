// What get_story tells a story's author about its moderation (docs/moderation.md): the state, the
// reasons readers gave, since when, and how to ask for a review. Nobody else sees it: a held story
// is not_found to everyone but its author, and who flagged it is never shown.
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
    since: z.string().describe('When it entered this state (ISO 8601).'),
    appeal: z.string().describe('How to ask for a review.'),
  })
  .describe('Only on your own story, and only once it was held for review (docs/moderation.md).');

export type ModerationView = z.output<typeof moderationViewSchema>;

export function moderationView(state: ModerationState): ModerationView {
  return { state: state.state, reasons: [...state.reasons], since: state.since, appeal: APPEAL_TEXT };
}
