// The page-by-page reads of an account's items (./account-owned-items.ts says which kind is found
// how): a partition Queried a page at a time; the author index (GSI2) a page of keys at a time; and
// the account's index items (./account-index-items.ts) a page at a time, each page of what they
// point to hydrated with one BatchGetItem in key order. Every page is bounded by `limit`, so a
// reader that writes each page out before asking for the next holds one page at a time.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../../actions.ts';
import { type ItemKey, keyId, keyOf } from '../../keys.ts';
import { readItems } from '../../read-items.ts';
import { INDEXES, KEY } from '../../schema.ts';
import { isExpired, type Store } from '../../store.ts';
import { callStore } from '../../store-unavailable.ts';

export interface PageQuery {
  partition: string;
  /** Only sort keys that start with it. */
  prefix?: string;
  /** Items (or index keys) a page. */
  limit: number;
}

export function partitionPageParams(tableName: string, query: PageQuery, index?: 'author'): QueryCommandInput {
  const keys = index === undefined ? KEY : INDEXES[index];
  return {
    TableName: tableName,
    ...(index === undefined ? { ConsistentRead: true } : { IndexName: INDEXES[index].name }),
    KeyConditionExpression: query.prefix === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': keys.partition, ...(query.prefix === undefined ? {} : { '#sk': keys.sort }) },
    ExpressionAttributeValues: { ':pk': query.partition, ...(query.prefix === undefined ? {} : { ':prefix': query.prefix }) },
    Limit: query.limit,
  };
}

/** A partition's items, a page at a time, expired ones left out. */
export async function* partitionPages(store: Store, query: PageQuery): AsyncGenerator<StoredItem[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const params = { ...partitionPageParams(store.tableName, query), ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }) };
    const output = await callStore(() => store.client.send(new QueryCommand(params)));
    const items = ((output.Items ?? []) as StoredItem[]).filter((item) => !isExpired(item, store.now()));
    if (items.length > 0) yield items;
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
}

/** The items a GSI2 partition (an author's stories) names, a page at a time, in index order. */
export async function* authorIndexPages(store: Store, query: PageQuery): AsyncGenerator<StoredItem[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const params = {
      ...partitionPageParams(store.tableName, query, 'author'),
      ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
    };
    const output = await callStore(() => store.client.send(new QueryCommand(params)));
    const keys = ((output.Items ?? []) as StoredItem[]).map(keyOf);
    const found = await readItems(store, keys);
    const items = keys.flatMap((key) => found.get(keyId(key)) ?? []);
    if (items.length > 0) yield items;
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
}

/**
 * The items a page of index items points to (`pointsTo` names their keys), a page at a time: a
 * pointer whose item went meanwhile (a withdrawn report) yields nothing.
 */
export async function* pointedPages(
  store: Store,
  query: PageQuery,
  pointsTo: (indexItem: StoredItem) => ItemKey[],
): AsyncGenerator<StoredItem[]> {
  for await (const page of partitionPages(store, query)) {
    const keys = page.flatMap(pointsTo);
    const found = await readItems(store, keys);
    const items = keys.flatMap((key) => found.get(keyId(key)) ?? []);
    if (items.length > 0) yield items;
  }
}
