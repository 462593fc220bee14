// search_stories' page cursor: the offset into the ranked matches of one query. The query travels
// in the cursor so a cursor reused with another query is refused rather than misapplied.
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import { MAX_QUERY_CHARS } from './search-stories.contract.ts';

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
