// set_visibility's contract: its name, its described input and its answer. MCP's tool and
// POST /v1/stories/{slug}/visibility use exactly these.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';
import { visibilitySchema } from './contract/story-shapes.ts';

export const SET_VISIBILITY_TOOL = 'set_visibility';

export const setVisibilityInputSchema = describedObject(
  {
    slug: z.string(),
    hidden: z.boolean(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of one of your stories.',
    hidden: 'true hides the story from everyone but you (it leaves the feed and search); false shows it again.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type SetVisibilityInput = z.input<typeof setVisibilityInputSchema>;

export const setVisibilityOutputSchema = z.object({
  slug: z.string(),
  hidden: z.boolean(),
  visibility: visibilitySchema,
  replayed: replayedField,
});

export type VisibilityOutcome = Outcome<typeof setVisibilityOutputSchema>;
