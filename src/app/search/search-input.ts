// The inputs and answers of search_stories and suggest_for_project. Every field is described:
// the same schemas are shown to agents (MCP tools/list) and to apps (the OpenAPI document).
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import type { StorySummary } from '../queries/present-story.ts';

export const MAX_QUERY_CHARS = 500;
export const MAX_CONTEXT_CHARS = 4000;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
export const MAX_SUGGESTIONS = 3;

export const searchStoriesInputSchema = z.strictObject({
  query: z
    .string()
    .max(MAX_QUERY_CHARS)
    .optional()
    .describe(
      'Words to look for in titles, summaries, tags and stacks. Every word must match (a word may match as a prefix or with a typo). Empty or omitted: the newest stories first.',
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

export interface SearchPage {
  stories: StorySummary[];
  /** How many public stories match the query. */
  total: number;
  /** Present when more matches follow: pass it back as `cursor` with the same query. */
  cursor?: string;
}

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

export interface Suggestion {
  story: StorySummary;
  /** One line: why this story may matter for the project described. */
  why: string;
}

export interface Suggestions {
  suggestions: Suggestion[];
}

// A page position: the offset into the ranked matches of one query. The query travels in the
// cursor so a cursor reused with another query is refused rather than misapplied.
const pageCursorSchema = z.strictObject({ q: z.string().max(MAX_QUERY_CHARS), o: z.number().int().min(1).max(1_000_000) });

export function encodeSearchCursor(query: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: query, o: offset }), 'utf8').toString('base64url');
}

export function decodeSearchCursor(cursor: string, query: string): number {
  let decoded: unknown;
  try {
    const json = Buffer.from(cursor, 'base64url').toString('utf8');
    // Re-encoding must give the cursor back: base64url decoding alone forgives stray characters.
    if (Buffer.from(json, 'utf8').toString('base64url') !== cursor) throw new Error('not canonical');
    decoded = JSON.parse(json);
  } catch {
    throw badSearchCursor();
  }
  const parsed = pageCursorSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.q !== query) throw badSearchCursor();
  return parsed.data.o;
}

function badSearchCursor() {
  return validationFailed('The cursor is not one search_stories gave out for this query.', {
    cursor: 'Pass the cursor of the previous page unchanged together with the same query, or leave it out to start from the first page.',
  });
}
