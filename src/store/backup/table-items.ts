// Reading every item of the table for a backup, and writing items back on import: raw
// AttributeValue maps through the low-level commands, so nothing is converted on the way.
import { BatchWriteItemCommand, ScanCommand, type WriteRequest } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { streamCheckpointPrefix } from '../keys.ts';
import { TTL_ATTRIBUTE } from '../schema.ts';
import { SEARCH_LOG_PREFIX } from '../search/search-log.ts';
import { searchPointerKey } from '../search/search-pointer.ts';
import type { StoredItem } from './backup-lines.ts';

/**
 * Items a backup leaves out: each describes the table it was read from, not the data, and the
 * restored deployment makes its own. A stream checkpoint names the old table's stream; the
 * search pointer names a snapshot that is not in the backup and the search log is the old
 * index's change log (without a pointer, an instance builds its index from the feed index, and
 * the sweeper writes a new snapshot). An expired item is one a read would filter out anyway.
 */
export function leftOutOfBackup(item: StoredItem, nowMs: number): boolean {
  const pk = item.PK?.S ?? '';
  if (pk.startsWith(streamCheckpointPrefix) || pk.startsWith(SEARCH_LOG_PREFIX)) return true;
  if (pk === searchPointerKey.PK && item.SK?.S === searchPointerKey.SK) return true;
  const expiresAt = item[TTL_ATTRIBUTE]?.N;
  return expiresAt !== undefined && Number(expiresAt) * 1000 <= nowMs;
}

/** The table's items a page at a time (a Scan page is at most 1 MB), consistent reads. */
export async function* scanItems(client: DynamoDBDocumentClient, tableName: string): AsyncGenerator<StoredItem[]> {
  let start: StoredItem | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
}

/** Whether the table holds any item at all (one item read). */
export async function tableHasItems(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  const page = await client.send(new ScanCommand({ TableName: tableName, Limit: 1, ConsistentRead: true }));
  return (page.Count ?? 0) > 0 || page.LastEvaluatedKey !== undefined;
}

/** DynamoDB's limit on one BatchWriteItem. */
export const WRITE_BATCH = 25;
const MAX_UNPROCESSED_ROUNDS = 12;

/**
 * Puts the items (at most WRITE_BATCH) as they are. Items DynamoDB leaves unprocessed (throttled)
 * are sent again after a growing pause; a put of the same item twice changes nothing.
 */
export async function putItems(client: DynamoDBDocumentClient, tableName: string, items: readonly StoredItem[]): Promise<void> {
  let requests: WriteRequest[] = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let round = 0; requests.length > 0; round += 1) {
    if (round === MAX_UNPROCESSED_ROUNDS) throw new Error(`${requests.length} item(s) still unprocessed after ${round} attempts`);
    if (round > 0) await new Promise((done) => setTimeout(done, Math.min(50 * 2 ** round, 5_000)));
    const answer = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }));
    requests = answer.UnprocessedItems?.[tableName] ?? [];
  }
}
