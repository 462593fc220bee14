// appeal_moderation's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/appeals use exactly these.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';

export const APPEAL_MODERATION_TOOL = 'appeal_moderation';
export const MAX_APPEAL_NOTE_CHARS = 280;

export const appealModerationInputSchema = describedObject(
  {
    slug: z.string(),
    note: z.string().trim().min(1, 'Say in a sentence why the hold is a mistake.').max(MAX_APPEAL_NOTE_CHARS),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of your own story that is held for review (get_story shows `moderation`).',
    note: `At most ${MAX_APPEAL_NOTE_CHARS} characters for the operator: why the hold is a mistake, or what you changed. Never paste a secret.`,
    op_id: OP_ID_DESCRIPTION,
  },
);

export const appealModerationOutputSchema = z.object({
  slug: z.string(),
  since: z.string().describe('The hold you appealed (its time): one appeal per hold.'),
  note: z.string(),
  at: z.string().describe('When the appeal was received.'),
  replayed: replayedField,
});

export type AppealOutcome = Outcome<typeof appealModerationOutputSchema>;
