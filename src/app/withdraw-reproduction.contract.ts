// withdraw_reproduction's contract: its name, its described input and its answer. MCP's tool and
// DELETE /v1/stories/{slug}/reproductions use exactly these.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';
import { reproductionCountsSchema } from './contract/story-shapes.ts';

export const WITHDRAW_REPRODUCTION_TOOL = 'withdraw_reproduction';

export const withdrawReproductionInputSchema = describedObject(
  {
    slug: z.string(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of the story whose reproduction report you take back.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type WithdrawReproductionInput = z.input<typeof withdrawReproductionInputSchema>;

export const withdrawReproductionOutputSchema = z.object({
  slug: z.string(),
  withdrawn: z.literal(true),
  counts: reproductionCountsSchema,
  reproducers_count: z.number().int(),
  replayed: replayedField,
});

export type WithdrawOutcome = Outcome<typeof withdrawReproductionOutputSchema>;
