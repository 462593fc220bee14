// Which table stream records change what search indexes, decided from the record alone (docs/
// design.md#search): a story's META or BODY inserted or removed, or modified in a field the index
// holds or in whether it is listed. A META modified only in its counts, reproducers or announce
// bookkeeping (most of the table's writes) logs nothing. The shape is the stream record's (an
// aws-lambda DynamoDBRecord fits it), so both the stream function and `npm start`'s poller use it.

import type { SearchChange } from '../../store/search/search-log.ts';
import { itemFromStreamImage } from '../../store/stream-image.ts';

export interface StreamRecordShape {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | string;
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber?: string;
  };
}

export const STORY_PREFIX = 'STORY#';
/** The story items whose changes reach search. */
export const SEARCHED_SORT_KEYS = ['META', 'BODY'] as const;

/** What search reads of each: a change elsewhere in the item is not news to it. */
const WATCHED: Record<(typeof SEARCHED_SORT_KEYS)[number], readonly string[]> = {
  META: ['title', 'summary', 'tags', 'stack', 'type', 'published_at', 'visibility', 'hidden'],
  BODY: ['markdown'],
};

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { S?: unknown }).S === 'string' ? (value as { S: string }).S : undefined;

export function searchChangeFor(record: StreamRecordShape): SearchChange | undefined {
  const keys = record.dynamodb?.Keys;
  const pk = stringOf(keys?.PK);
  const sk = stringOf(keys?.SK) as (typeof SEARCHED_SORT_KEYS)[number] | undefined;
  if (pk === undefined || !pk.startsWith(STORY_PREFIX) || sk === undefined || !SEARCHED_SORT_KEYS.includes(sk)) return undefined;
  const change = { slug: pk.slice(STORY_PREFIX.length), eventId: record.eventID ?? record.dynamodb?.SequenceNumber ?? 'unknown' };
  if (record.eventName === 'INSERT' || record.eventName === 'REMOVE') return change;
  if (record.eventName !== 'MODIFY') return undefined;
  const { OldImage: before, NewImage: after } = record.dynamodb ?? {};
  // Without both images (a stream of keys only) every change may matter.
  if (before === undefined || after === undefined) return change;
  const old = itemFromStreamImage(before);
  const now = itemFromStreamImage(after);
  return WATCHED[sk].some((field) => JSON.stringify(old[field]) !== JSON.stringify(now[field])) ? change : undefined;
}

/** The batch's changes, one per slug and event. */
export function searchChangesOf(records: readonly StreamRecordShape[]): SearchChange[] {
  return records.flatMap((record) => {
    const change = searchChangeFor(record);
    return change === undefined ? [] : [change];
  });
}
