// redact_story's contract: its name, its described input and its answer (the story as stored and
// the revision below which no markdown is kept). MCP's tool and POST /v1/stories/{slug}/redact
// use exactly these.
import { z } from 'zod';
import { contentOutcomeSchema } from './contract/content-outcome.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import type { Outcome } from './contract/replayed.ts';

export const REDACT_TOOL = 'redact_story';

export const redactStoryInputSchema = describedObject(
  {
    slug: z.string().min(1),
    base_revision: z.number().int().positive(),
    markdown: z.string(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of one of your stories.',
    base_revision:
      'The revision you redacted (get_story answers it). If the story moved past it the answer is revision_conflict: read it again and redact the current text.',
    markdown:
      'The whole story with the secret taken out (front matter and body, the same date). The same text as now keeps the current text and only removes the earlier revisions.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type RedactStoryInput = z.input<typeof redactStoryInputSchema>;

export const redactStoryOutputSchema = contentOutcomeSchema.extend({
  redacted_below: z
    .number()
    .int()
    .min(1)
    .describe(
      'Every revision before this one has had its markdown removed (kind, time and note are kept, marked redacted); this one holds the current text.',
    ),
});

export type RedactOutcome = Outcome<typeof redactStoryOutputSchema>;
/** What a redaction's op record keeps: story_url is added on the way out (src/app/story-content/content-write.ts). */
export type StoredRedactOutcome = Omit<RedactOutcome, 'story_url'>;
