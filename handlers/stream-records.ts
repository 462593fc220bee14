// Which stream records the stream function acts on, and what it does for each — decided from the
// record alone. Three kinds of work, each twice-safe, so a batch delivered twice (Lambda
// retries, bisection, a replayed shard) changes nothing the second time that matters:
//   deliver   an outbox event was inserted (a correction to every reproducer): fan it out
//   announce  a story META that owes Bluesky work (on the announce queue, not claimed, due)
//   search    a story's META or BODY changed what search indexes: one change-log item
//             (src/app/search/record-search-changes.ts; a second delivery is a harmless duplicate)
// One record may carry two: a META due for announcing whose title changed is both.
// The stack's event-source filters (FILTER_PATTERNS) keep every other record (rate windows, op
// records, notifications…) from ever invoking the function; this classification repeats the
// check because a filter is an optimisation, not a guarantee about what arrives.
import type { DynamoDBRecord } from 'aws-lambda';
import { SEARCHED_SORT_KEYS, STORY_PREFIX as SEARCHED_STORY_PREFIX, searchChangeFor } from '../src/app/search/search-change-records.ts';
import { CORRECTION_EVENT_PREFIX } from '../src/outbox/dispatch-notifications.ts';
import type { StoredItem } from '../src/store/actions.ts';
import { ACCOUNT_DELETION_EVENT_PREFIX } from '../src/store/identity/account/deletion-items.ts';
import { outboxPartition } from '../src/store/keys.ts';
import { INDEXES, KEY } from '../src/store/schema.ts';
import type { SearchChange } from '../src/store/search/search-log.ts';
import { PENDING } from '../src/store/story/claim-marker.ts';
import { toStoryMeta } from '../src/store/story/story-items.ts';
import { itemFromStreamImage } from '../src/store/stream-image.ts';

export type StreamWork =
  | { kind: 'deliver'; event: StoredItem }
  | { kind: 'announce'; slug: string }
  | { kind: 'search'; change: SearchChange }
  /** An account deletion's event was written or moved by a step: run its next steps (design.md#account-deletion). */
  | { kind: 'delete-account'; account: string }
  | { kind: 'skip' };

const STORY_META_SORT = 'META';
const STORY_PREFIX = 'STORY#';
const SKIP: StreamWork = { kind: 'skip' };

/** `now` is an ISO time: an announcement retrying later is left to the sweeper until it is due. */
export function workFor(record: DynamoDBRecord, now: string): StreamWork {
  const image = record.dynamodb?.NewImage;
  if (image === undefined || (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY')) return SKIP;
  const item = itemFromStreamImage(image);
  const pk = String(item[KEY.partition]);
  const sk = String(item[KEY.sort]);
  if (pk === outboxPartition && sk.startsWith(ACCOUNT_DELETION_EVENT_PREFIX)) {
    // Each step moves the event, so its record is the cue for the next step.
    return { kind: 'delete-account', account: String(item.account) };
  }
  if (pk === outboxPartition) {
    // An event is written once, in its write's transaction; later changes to it are not news.
    return record.eventName === 'INSERT' && sk.startsWith(CORRECTION_EVENT_PREFIX) ? { kind: 'deliver', event: item } : SKIP;
  }
  if (pk.startsWith(STORY_PREFIX) && sk === STORY_META_SORT && item[INDEXES.announce.partition] !== undefined) {
    const announce = toStoryMeta(item).announce;
    // A claim in flight is its holder's to settle; a stale one is the sweeper's to take over.
    if (announce.bsky_uri === PENDING) return SKIP;
    if (announce.next_attempt_at !== undefined && announce.next_attempt_at > now) return SKIP;
    return { kind: 'announce', slug: pk.slice(STORY_PREFIX.length) };
  }
  return SKIP;
}

/** Every piece of work the record asks for: none, one, or an announcement and a search change. */
export function worksFor(record: DynamoDBRecord, now: string): StreamWork[] {
  const change = searchChangeFor(record);
  const works = [workFor(record, now), ...(change === undefined ? [] : [{ kind: 'search', change } as const])];
  return works.filter((work) => work.kind !== 'skip');
}

/**
 * Lambda event-source filter patterns (the stack installs them; a record matching any one
 * invokes the function): inserted outbox events, story METAs on the announce queue, and any
 * change to a story's META or BODY (the search change log; most META changes are counts, which
 * the classification above drops, since a filter cannot compare the old image with the new).
 */
export const FILTER_PATTERNS: readonly Record<string, unknown>[] = [
  { eventName: ['INSERT'], dynamodb: { Keys: { [KEY.partition]: { S: [outboxPartition] } } } },
  {
    eventName: ['MODIFY'],
    dynamodb: { Keys: { [KEY.partition]: { S: [outboxPartition] }, [KEY.sort]: { S: [{ prefix: ACCOUNT_DELETION_EVENT_PREFIX }] } } },
  },
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: {
      Keys: { [KEY.sort]: { S: [STORY_META_SORT] } },
      NewImage: { [INDEXES.announce.partition]: { S: [{ exists: true }] } },
    },
  },
  {
    eventName: ['INSERT', 'MODIFY', 'REMOVE'],
    dynamodb: { Keys: { [KEY.partition]: { S: [{ prefix: SEARCHED_STORY_PREFIX }] }, [KEY.sort]: { S: [...SEARCHED_SORT_KEYS] } } },
  },
];
