// The skeleton of a story list: keys from a keys-only GSI (the feed month shards, or one
// author's stories), newest first. Hydration is a separate BatchGetItem by the caller; index
// entries carry no expires_at, so TTL is filtered there.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../keys.ts';
import { INDEXES } from '../schema.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export type ListIndex = 'feed' | 'author';

export interface IndexPage {
  /** GSI partition value: `FEED#<yyyy-mm>` or `AUTHOR#<account>`. */
  partition: string;
  /** Only entries strictly older than this sort key (`<published_at>#<slug>`): the page cursor. */
  before?: string | undefined;
  limit: number;
}

export interface IndexEntry {
  key: ItemKey;
  /** The entry's sort key in the index, `<published_at>#<slug>`. */
  sort: string;
}

export interface IndexSlice {
  entries: IndexEntry[];
  /** The partition holds entries older than the last one returned. */
  more: boolean;
}

/**
 * The Query for one page, newest first. It asks for one entry more than the page so the caller
 * knows whether another page exists without a later round trip that comes back empty. Sort keys
 * end in the slug, so they are unique and "older than the cursor" skips exactly what was seen.
 */
export function indexQueryParams(tableName: string, index: ListIndex, page: IndexPage): QueryCommandInput {
  const { name, partition, sort } = INDEXES[index];
  const base = {
    TableName: tableName,
    IndexName: name,
    ScanIndexForward: false,
    Limit: page.limit + 1,
  };
  if (page.before === undefined) {
    return {
      ...base,
      KeyConditionExpression: '#partition = :partition',
      ExpressionAttributeNames: { '#partition': partition },
      ExpressionAttributeValues: { ':partition': page.partition },
    };
  }
  return {
    ...base,
    KeyConditionExpression: '#partition = :partition AND #sort < :before',
    ExpressionAttributeNames: { '#partition': partition, '#sort': sort },
    ExpressionAttributeValues: { ':partition': page.partition, ':before': page.before },
  };
}

export async function queryIndex(store: Store, index: ListIndex, page: IndexPage): Promise<IndexSlice> {
  const output = await callStore(() => store.client.send(new QueryCommand(indexQueryParams(store.tableName, index, page))));
  const items = (output.Items ?? []) as Record<string, unknown>[];
  const sort = INDEXES[index].sort;
  return {
    entries: items.slice(0, page.limit).map((item) => ({
      key: { PK: String(item.PK), SK: String(item.SK) },
      sort: String(item[sort]),
    })),
    // Keys-only entries are far under the 1 MB page size, so Limit is what stops the Query.
    more: items.length > page.limit,
  };
}
