// The search change log (docs/design.md#search): one small item per change to a story's META or
// BODY, saying only "this slug changed". Whoever applies one re-reads the story's current state,
// so the order of the items and duplicates of one do not matter.
//   PK = SEARCHLOG#<UTC hour of writing>   SK = <ISO time of writing>#<slug>#<stream event id>
// The time is the writer's clock at the write, not the stream record's: a reader that queried up
// to T and then queries again from T − SEARCH_LOG_OVERLAP_MS sees every item written after its
// first query, however late the stream delivered the record. A redelivered record writes a second
// item under a later time (harmless: applying it re-reads the same story); items expire after
// SEARCH_LOG_TTL_SECONDS.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { epochSeconds, isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export const SEARCH_LOG_PREFIX = 'SEARCHLOG#';
/** Two days: past a day behind, an instance loads a snapshot instead of replaying (live-story-index.ts). */
export const SEARCH_LOG_TTL_SECONDS = 2 * 24 * 60 * 60;
/**
 * How far back of its watermark a reader queries again: covers the writer's clock running behind
 * the reader's and a put that commits after a query started (the SDK gives up on a put long before).
 */
export const SEARCH_LOG_OVERLAP_MS = 30_000;

/**
 * The oldest watermark the log can still bring up to date: past it some items may have expired,
 * and an index that old is rebuilt from the feed instead of replayed.
 */
export const SEARCH_LOG_REPLAYABLE_MS = SEARCH_LOG_TTL_SECONDS * 1000 - 2 * SEARCH_LOG_OVERLAP_MS;

const HOUR_MS = 60 * 60 * 1000;
/** Puts in flight at once. PutItem, not BatchWriteItem: no function is granted BatchWriteItem (infra/table-access.ts). */
const PUTS_IN_FLIGHT = 10;
/** Log items are ~120 bytes: a page of 1,000 is ~120 KB, under the 1 MB a Query returns. */
const LOG_PAGE_ITEMS = 1000;

export const searchLogPartition = (atMs: number): string => `${SEARCH_LOG_PREFIX}${new Date(atMs).toISOString().slice(0, 13)}`;

export interface SearchChange {
  slug: string;
  /** The stream record's eventID: two changes of one slug in one instant stay two items. */
  eventId: string;
}

export interface SearchLogEntry {
  /** PK and SK together: what a reader remembers to skip an entry it has applied. */
  id: string;
  slug: string;
  atMs: number;
}

export function searchLogItem(change: SearchChange, atMs: number): StoredItem {
  return {
    PK: searchLogPartition(atMs),
    SK: `${new Date(atMs).toISOString()}#${change.slug}#${change.eventId}`,
    slug: change.slug,
    expires_at: epochSeconds(atMs) + SEARCH_LOG_TTL_SECONDS,
  };
}

/** Writes one log item per change, stamped with the store's clock now. */
export async function writeSearchLog(store: Store, changes: readonly SearchChange[]): Promise<void> {
  const atMs = store.now();
  const items = changes.map((change) => searchLogItem(change, atMs));
  for (let start = 0; start < items.length; start += PUTS_IN_FLIGHT) {
    await Promise.all(
      items
        .slice(start, start + PUTS_IN_FLIGHT)
        .map((Item) => callStore(() => store.client.send(new PutCommand({ TableName: store.tableName, Item })))),
    );
  }
}

export interface SearchLogRead {
  /** In the order written (hour partitions oldest first, then by time within each). */
  entries: SearchLogEntry[];
  /** Every entry up to the read's start is in `entries`; false when `maxEntries` cut it short. */
  complete: boolean;
}

/**
 * The entries written at or after `sinceMs`, strongly consistent, at most `maxEntries` of those
 * `skip` does not name (a reader continues from the last one next time). Hours older than the
 * log's lifetime are not asked for. Skipped entries do not count: a reader re-reads the overlap
 * behind its watermark every time, and a burst of more than `maxEntries` inside it would
 * otherwise fill every read with entries it has applied and never get past them.
 */
export async function readSearchLog(
  store: Store,
  sinceMs: number,
  maxEntries: number,
  skip: (id: string) => boolean = () => false,
): Promise<SearchLogRead> {
  const nowMs = store.now();
  const from = Math.max(sinceMs, nowMs - SEARCH_LOG_TTL_SECONDS * 1000);
  const since = new Date(from).toISOString();
  const entries: SearchLogEntry[] = [];
  for (let hour = Math.floor(from / HOUR_MS) * HOUR_MS; hour <= nowMs; hour += HOUR_MS) {
    let start: Record<string, unknown> | undefined;
    do {
      const output = await callStore(() =>
        store.client.send(
          new QueryCommand({
            TableName: store.tableName,
            KeyConditionExpression: 'PK = :pk AND SK >= :since',
            ExpressionAttributeValues: { ':pk': searchLogPartition(hour), ':since': since },
            ConsistentRead: true,
            Limit: LOG_PAGE_ITEMS,
            ExclusiveStartKey: start,
          }),
        ),
      );
      for (const item of (output.Items ?? []) as StoredItem[]) {
        const sk = String(item.SK);
        const id = `${String(item.PK)}\u0000${sk}`;
        if (isExpired(item, nowMs) || skip(id)) continue;
        entries.push({ id, slug: String(item.slug), atMs: Date.parse(sk.slice(0, sk.indexOf('#'))) });
        if (entries.length >= maxEntries) return { entries, complete: false };
      }
      start = output.LastEvaluatedKey;
    } while (start !== undefined);
  }
  return { entries, complete: true };
}
