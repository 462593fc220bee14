import { describe, expect, it } from 'vitest';
import { decodeAuthorCursor, decodeFeedCursor, encodeCursor } from '../../../../src/app/queries/cursor.ts';
import { thrownRefusal } from '../../../helpers/refusal.ts';

const lastKey = '2026-11-30T09:00:00.000Z#2026-11-30-a-story';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('list cursors are opaque and checked on the way back', () => {
  it('a feed cursor round-trips, with or without a last key', () => {
    expect(decodeFeedCursor(encodeCursor({ month: '2026-11', lastKey }))).toEqual({ month: '2026-11', lastKey });
    expect(decodeFeedCursor(encodeCursor({ month: '2026-10' }))).toEqual({ month: '2026-10' });
    expect(encodeCursor({ month: '2026-10' })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('an author cursor round-trips for the same author', () => {
    expect(decodeAuthorCursor(encodeCursor({ author: 'acct-a', lastKey }), 'acct-a')).toEqual({ author: 'acct-a', lastKey });
  });

  it.each([
    ['not base64 JSON', () => decodeFeedCursor('%%%')],
    ['JSON that is no cursor', () => decodeFeedCursor(b64({ hello: 1 }))],
    ['a month that is no month', () => decodeFeedCursor(b64({ month: '2026-13' }))],
    ['a last key outside its month', () => decodeFeedCursor(b64({ month: '2026-10', lastKey }))],
    ['a last key that is no list key', () => decodeFeedCursor(b64({ month: '2026-11', lastKey: '2026-11 or 1=1' }))],
    ['a month with trailing text', () => decodeFeedCursor(b64({ month: '2026-11x' }))],
    ['a month with leading text', () => decodeFeedCursor(b64({ month: 'x2026-11' }))],
    ['a last key with trailing text', () => decodeAuthorCursor(b64({ author: 'acct-a', lastKey: `${lastKey}#more` }), 'acct-a')],
    ['a last key with leading text', () => decodeAuthorCursor(b64({ author: 'acct-a', lastKey: `x${lastKey}` }), 'acct-a')],
    ['an author cursor given to the feed', () => decodeFeedCursor(encodeCursor({ author: 'acct-a', lastKey }))],
    ['a feed cursor given to an author list', () => decodeAuthorCursor(encodeCursor({ month: '2026-11', lastKey }), 'acct-a')],
    ["another author's cursor", () => decodeAuthorCursor(encodeCursor({ author: 'acct-b', lastKey }), 'acct-a')],
  ])('%s is validation_failed naming the cursor', (_name, run) => {
    const error = thrownRefusal(run);
    expect(error.code).toBe('validation_failed');
    expect(Object.keys((error.details as { fields: Record<string, string> }).fields)).toEqual(['cursor']);
  });
});
