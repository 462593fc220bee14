// search_stories' contract: its name, its described input and its answer (a page of summaries).
// MCP's tool and GET /v1/stories?q= use exactly these.
import { z } from 'zod';
import { type Outcome, replayedField } from '../contract/replayed.ts';
import { storySummarySchema } from '../contract/story-shapes.ts';

export const SEARCH_STORIES_TOOL = 'search_stories';

export const MAX_QUERY_CHARS = 500;
/**
 * Every word of a query is looked up with prefix and typo matching, each a walk of the index's
 * term tree: the words, not the characters, set what a search costs. Sixteen narrow any search
 * far enough (every word must match).
 */
export const MAX_QUERY_WORDS = 16;

const wordsOf = (query: string): number => query.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').length;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

export const searchStoriesInputSchema = z.strictObject({
  query: z
    .string()
    .max(MAX_QUERY_CHARS)
    .refine((query) => wordsOf(query) <= MAX_QUERY_WORDS, {
      message: `At most ${MAX_QUERY_WORDS} words: every word must match, so drop the least telling ones.`,
    })
    .optional()
    .describe(
      `Words to look for in titles, summaries, tags, stacks and story bodies (their first 16 KiB). Every word must match (the last may match as a prefix, a rare word with a typo; words nearly every story has may be left out); at most ${MAX_QUERY_WORDS} words. Empty or omitted: the newest stories first.`,
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe(`Stories per page, 1–${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`),
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe('The cursor of the previous page, exactly as returned, with the same query; omit it for the first page.'),
});

export type SearchStoriesInput = z.input<typeof searchStoriesInputSchema>;

export const searchStoriesOutputSchema = z.object({
  stories: z.array(storySummarySchema).describe('Best match first; newest first for an empty query.'),
  total: z.number().int().describe('How many public stories match.'),
  cursor: z.string().optional().describe('Present when more matches follow: pass it back as `cursor` with the same query.'),
  replayed: replayedField,
});

export type SearchPage = Outcome<typeof searchStoriesOutputSchema>;
