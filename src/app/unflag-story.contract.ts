// unflag_story's contract: its name, its described input and its answer. MCP's tool and
// DELETE /v1/stories/{slug}/flags use exactly these.
import { z } from 'zod';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';

export const UNFLAG_STORY_TOOL = 'unflag_story';

export const unflagStoryInputSchema = describedObject(
  {
    slug: z.string(),
    op_id: z.string().optional(),
  },
  {
    slug: 'The key: the slug of the story whose flag you withdraw.',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type UnflagStoryInput = z.input<typeof unflagStoryInputSchema>;

export const unflagStoryOutputSchema = z.object({
  slug: z.string(),
  withdrawn: z
    .literal(true)
    .describe('Your flag on this story is gone (also when there was none). A story already held for review stays held.'),
  replayed: replayedField,
});

export type UnflagOutcome = Outcome<typeof unflagStoryOutputSchema>;
