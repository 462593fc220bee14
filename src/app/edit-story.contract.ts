// edit_story's contract: its name, its described input and its answer (the story as stored and
// how many reproducers the edit tells). MCP's tool and PUT /v1/stories/{slug} use exactly these.
import { z } from 'zod';
import { contentOutcomeSchema } from './contract/content-outcome.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import type { Outcome } from './contract/replayed.ts';

export const EDIT_TOOL = 'edit_story';

export const EDIT_KINDS = ['rephrase', 'addition', 'correction'] as const;
export const MAX_NOTE_CHARS = 1000;

export const editStoryInputSchema = describedObject(
  {
    slug: z.string().min(1),
    markdown: z.string(),
    kind: z.enum(EDIT_KINDS),
    note: z.string().max(MAX_NOTE_CHARS).optional(),
    source: z.string().max(MAX_NOTE_CHARS).optional(),
    base_revision: z.number().int().positive().optional(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of one of your stories.',
    markdown: 'The whole new story (front matter and body), with the same date as before.',
    kind: '"rephrase" (same meaning, better words), "addition" (new information) or "correction" (something was wrong: needs a note, and every reproducer is told).',
    note: 'What changed, in a sentence or two; required for a correction.',
    source: 'Optional: where the new information came from (a link, an issue).',
    base_revision:
      'The revision you edited (get_story answers it). If the story moved past it the answer is revision_conflict: read it again and redo your edit on top.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type EditStoryInput = z.input<typeof editStoryInputSchema>;

export const editStoryOutputSchema = contentOutcomeSchema.extend({
  notified: z
    .number()
    .int()
    .min(0)
    .describe(
      'How many reproducers this edit tells (a correction notifies each of them once; other kinds tell nobody). 0 for an edit that changed nothing, a repeat of one included; an op_id replay answers the first answer.',
    ),
});

/** `notified`: reproducers this edit tells (a correction's outbox event); stored in the op record with the rest. */
export type EditOutcome = Outcome<typeof editStoryOutputSchema>;
/** What an edit's op record keeps: story_url is added on the way out (src/app/story-content/content-write.ts). */
export type StoredEditOutcome = Omit<EditOutcome, 'story_url'>;
