// report_reproduction's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/reproductions use exactly these.
import { z } from 'zod';
import { MAX_DURATION_MIN, MAX_REPORT_NOTE_CHARS } from '../domain/report-limits.ts';
import { REPRODUCTION_RESULTS } from '../store/story/reproduction-items.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';
import { reportAgentSchema, reportEnvSchema } from './contract/report-metadata-schemas.ts';
import { reproductionCountsSchema } from './contract/story-shapes.ts';

export const REPORT_REPRODUCTION_TOOL = 'report_reproduction';

export const reportReproductionInputSchema = describedObject(
  {
    slug: z.string(),
    result: z.enum(REPRODUCTION_RESULTS, { error: 'Use one of worked, partial or failed.' }),
    note: z.string().max(MAX_REPORT_NOTE_CHARS).optional(),
    agent: reportAgentSchema.optional(),
    env: reportEnvSchema.optional(),
    duration_min: z.number().min(0).max(MAX_DURATION_MIN).optional(),
    tokens: z.number().int().min(0).optional(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of the story you reproduced.',
    result: '"worked", "partial" or "failed".',
    note: 'What happened, briefly: what differed, what you had to change.',
    agent:
      'Optional: the agent that reproduced it, as a string ("claude-code") or an object {"name": "claude-code", "version": "…", "model": "…"}. Used only in aggregates, never shown per person.',
    env: 'Optional: the environment it ran in, as a string or an object like {"os": "linux"}. Used only in aggregates, never shown per person.',
    duration_min: "Optional: minutes it took. Not part of the report's identity: re-measuring is the same report.",
    tokens: "Optional: tokens it took. Not part of the report's identity.",
    op_id: OP_ID_DESCRIPTION,
  },
);

export type ReportReproductionInput = z.input<typeof reportReproductionInputSchema>;

export const reportReproductionOutputSchema = z.object({
  slug: z.string(),
  result: z.enum(REPRODUCTION_RESULTS),
  counted: z.boolean().describe("false for the author's own report, which is kept but not counted."),
  counts: reproductionCountsSchema,
  reproducers_count: z.number().int(),
  replayed: replayedField,
});

export type ReproductionOutcome = Outcome<typeof reportReproductionOutputSchema>;
