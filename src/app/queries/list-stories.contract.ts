// list_stories' contract: its input (the public feed, or one author's stories) and its answer.
// GET /v1/stories without `q` uses exactly these.
import { z } from 'zod';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import { storySummarySchema } from '../contract/story-shapes.ts';

export const LIST_STORIES = 'list_stories';
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 50;

export const listStoriesInputSchema = z.strictObject({
  author: z.string().min(1).max(512).optional().describe("An account id: list that author's stories instead of the public feed."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .optional()
    .describe(`Stories per page, 1–${MAX_LIST_LIMIT}; default ${DEFAULT_LIST_LIMIT}.`),
  cursor: z.string().max(2048).optional().describe('The cursor of the previous page, exactly as returned; omit for the newest stories.'),
});

export type ListStoriesInput = z.input<typeof listStoriesInputSchema>;

export const listStoriesOutputSchema = z.object({
  stories: z.array(storySummarySchema),
  cursor: z.string().optional().describe('Present when more stories follow: pass it back as `cursor`.'),
  replayed: replayedField,
});

export type StoryList = Outcome<typeof listStoriesOutputSchema>;
