// flag_story's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/flags use exactly these.
import { z } from 'zod';
import { FLAG_REASONS } from '../store/story/flag-items.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';

export const FLAG_STORY_TOOL = 'flag_story';
export const MAX_FLAG_NOTE_CHARS = 280;

export const flagStoryInputSchema = describedObject(
  {
    slug: z.string(),
    reason: z.enum(FLAG_REASONS, { error: `Use one of: ${FLAG_REASONS.join(', ')}.` }),
    duplicate_of: z.string().optional(),
    note: z.string().max(MAX_FLAG_NOTE_CHARS).optional(),
    op_id: z.string().optional(),
  },
  {
    slug: "The key: the slug of someone else's public story you think breaks the rules.",
    reason:
      '"spam"; "unsafe_steps" (steps that harm the machine or data of whoever runs them); "secret_or_personal_data" (a credential or someone\'s personal data in it); "impersonation"; "off_topic" (not a story of building or fixing something); "duplicate" (with duplicate_of).',
    duplicate_of: 'With reason "duplicate" (and only then): the slug of the original story.',
    note: `Optional, at most ${MAX_FLAG_NOTE_CHARS} characters: what you saw, for the reviewer. Never paste the secret itself.`,
    op_id: OP_ID_DESCRIPTION,
  },
);

export type FlagStoryInput = z.input<typeof flagStoryInputSchema>;

export const flagStoryOutputSchema = z.object({
  slug: z.string(),
  reason: z.enum(FLAG_REASONS),
  duplicate_of: z.string().optional(),
  counted: z
    .boolean()
    .describe('Whether your flag counts toward holding the story for review: false while your account is new (docs/moderation.md).'),
  replayed: replayedField,
});

export type FlagOutcome = Outcome<typeof flagStoryOutputSchema>;
