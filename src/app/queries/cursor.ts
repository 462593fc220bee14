// Page cursors: opaque to callers (base64url JSON), checked on the way back in. A cursor names
// the last index entry a page examined, so the next page starts strictly after it and paging
// returns every story exactly once even while new stories arrive at the top.
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
// `<published_at>#<slug>`: an ISO timestamp, then a slug.
const LIST_SORT_KEY = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#\d{4}-\d{2}-\d{2}-[a-z0-9-]+$/;

const sortKey = z.string().max(300).regex(LIST_SORT_KEY);

/** The public feed: the month shard to read next, and (within it) the last entry seen. */
const feedCursorSchema = z
  .strictObject({ month: z.string().regex(MONTH), lastKey: sortKey.optional() })
  .refine((cursor) => cursor.lastKey === undefined || cursor.lastKey.startsWith(cursor.month), 'lastKey is not in month');

/** One author's stories: the author the list is for, and the last entry seen. */
const authorCursorSchema = z.strictObject({ author: z.string().min(1), lastKey: sortKey });

export type FeedCursor = z.output<typeof feedCursorSchema>;
export type AuthorCursor = z.output<typeof authorCursorSchema>;

export function encodeCursor(cursor: FeedCursor | AuthorCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodeFeedCursor(cursor: string): FeedCursor {
  return decode(cursor, feedCursorSchema);
}

/** An author cursor for this author only: a cursor from another list is refused, not misapplied. */
export function decodeAuthorCursor(cursor: string, author: string): AuthorCursor {
  const decoded = decode(cursor, authorCursorSchema);
  if (decoded.author !== author) throw badCursor();
  return decoded;
}

function decode<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badCursor();
  return parsed.data;
}

function badCursor(): Error {
  return validationFailed('The cursor is not one this list handed out.', {
    cursor:
      'Pass the cursor exactly as the previous list_stories answer returned it, with the same author filter, or leave it out to start from the newest story.',
  });
}
