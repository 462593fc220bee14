// suggest_for_project's contract: its name, its described input (a project description) and its
// answer (up to three stories, each with a why). MCP's tool uses exactly these.
import { z } from 'zod';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import { storySummarySchema } from '../contract/story-shapes.ts';

export const SUGGEST_FOR_PROJECT_TOOL = 'suggest_for_project';

export const MAX_CONTEXT_CHARS = 4000;
export const MAX_SUGGESTIONS = 3;

export const suggestForProjectInputSchema = z.strictObject({
  context: z
    .string()
    .min(1)
    .max(MAX_CONTEXT_CHARS)
    .describe(
      'What you are working on, in plain words: the stack (languages, frameworks, services), what you are building and the problem at hand. Never include secrets, tokens or private code.',
    ),
});

export type SuggestForProjectInput = z.input<typeof suggestForProjectInputSchema>;

export const suggestForProjectOutputSchema = z.object({
  suggestions: z
    .array(z.object({ story: storySummarySchema, why: z.string().describe('One line: why this story may matter for your project.') }))
    .max(MAX_SUGGESTIONS),
  replayed: replayedField,
});

export type Suggestions = Outcome<typeof suggestForProjectOutputSchema>;
