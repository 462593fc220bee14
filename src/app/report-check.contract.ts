// report_check's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/checks use exactly these.
import { z } from 'zod';
import { MAX_REPORT_NOTE_CHARS } from '../domain/report-limits.ts';
import { CHECK_RESULTS } from '../store/story/check-items.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';
import { checkCountsSchema } from './contract/story-shapes.ts';

export const REPORT_CHECK_TOOL = 'report_check';

export const reportCheckInputSchema = describedObject(
  {
    slug: z.string(),
    result: z.enum(CHECK_RESULTS, { error: 'Use has_problem or no_problem.' }),
    note: z.string().max(MAX_REPORT_NOTE_CHARS).optional(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of a story that has a "Check if this applies to you" section (has_check: true).',
    result: '"has_problem" (the check found the problem in your project) or "no_problem".',
    note: 'Optional: what you looked at.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type ReportCheckInput = z.input<typeof reportCheckInputSchema>;

export const reportCheckOutputSchema = z.object({
  slug: z.string(),
  result: z.enum(CHECK_RESULTS),
  counted: z.boolean().describe("false for the author's own answer, which is kept but not counted."),
  checks: checkCountsSchema,
  replayed: replayedField,
});

export type CheckOutcome = Outcome<typeof reportCheckOutputSchema>;
