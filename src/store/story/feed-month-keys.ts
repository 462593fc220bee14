// One month of the public feed (GSI1 `FEED#<yyyy-mm>`) in key order, oldest first: what the
// sitemap lists. Oldest first because a new story sorts last, so the numbered parts of a month
// that outgrew one sitemap keep their starts: only a hide or an unhide inside a part moves later
// entries by one. Always a Query on the index, never a Scan; keys only, a thousand a round trip,
// and a count reads keys without returning them.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { feedPartition } from '../keys.ts';
import { INDEXES } from '../schema.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import type { IndexEntry } from './story-index-query.ts';

type StartKey = Record<string, unknown> | undefined;

/**
 * Entries per round trip. DynamoDB stops a page at 1 MB anyway (~10,000 keys-only entries);
 * DynamoDB Local takes several times longer for one page of 1 MB than for the same entries in
 * pages of a thousand (bench:sitemap), and a thousand keys cost DynamoDB no more per entry.
 */
const PAGE_ENTRIES = 1_000;

export interface MonthRange {
  /** Entries passed over from the oldest, counted without being returned. */
  skip: number;
  /** At most this many entries after those. */
  take: number;
}

function monthQuery(store: Store, month: string, limit: number, start: StartKey, count: boolean): QueryCommandInput {
  const { name, partition } = INDEXES.feed;
  return {
    TableName: store.tableName,
    IndexName: name,
    KeyConditionExpression: '#partition = :partition',
    ExpressionAttributeNames: { '#partition': partition },
    ExpressionAttributeValues: { ':partition': feedPartition(month) },
    ScanIndexForward: true,
    Limit: limit,
    ...(start === undefined ? {} : { ExclusiveStartKey: start }),
    ...(count ? { Select: 'COUNT' as const } : {}),
  };
}

/**
 * Counts `upTo` entries (all of them when undefined) from `start`: the count and where the next
 * Query carries on. Each round trip counts a page of keys and returns none of them.
 */
async function countFrom(
  store: Store,
  month: string,
  upTo: number | undefined,
  start: StartKey,
): Promise<{ counted: number; next: StartKey }> {
  let counted = 0;
  let next = start;
  do {
    const limit = Math.min(PAGE_ENTRIES, upTo === undefined ? PAGE_ENTRIES : upTo - counted);
    if (limit === 0) break;
    const output = await callStore(() => store.client.send(new QueryCommand(monthQuery(store, month, limit, next, true))));
    counted += output.Count ?? 0;
    next = output.LastEvaluatedKey;
  } while (next !== undefined);
  return { counted, next };
}

/** How many entries the month's shard holds (lingering entries of a just-hidden story included). */
export async function countFeedMonth(store: Store, month: string): Promise<number> {
  return (await countFrom(store, month, undefined, undefined)).counted;
}

/** The entries `skip` to `skip + take` of the month, oldest first. */
export async function feedMonthEntries(store: Store, month: string, range: MonthRange): Promise<IndexEntry[]> {
  if (range.take <= 0) return [];
  const skipped = range.skip === 0 ? { counted: 0, next: undefined } : await countFrom(store, month, range.skip, undefined);
  // Fewer entries than the skip: the range starts past the end.
  if (skipped.counted < range.skip || (range.skip > 0 && skipped.next === undefined)) return [];
  const sort = INDEXES.feed.sort;
  const entries: IndexEntry[] = [];
  let next = skipped.next;
  do {
    const output = await callStore(() =>
      store.client.send(new QueryCommand(monthQuery(store, month, Math.min(PAGE_ENTRIES, range.take - entries.length), next, false))),
    );
    for (const item of (output.Items ?? []) as Record<string, unknown>[])
      entries.push({ key: { PK: String(item.PK), SK: String(item.SK) }, sort: String(item[sort]) });
    next = output.LastEvaluatedKey;
  } while (next !== undefined && entries.length < range.take);
  return entries;
}
