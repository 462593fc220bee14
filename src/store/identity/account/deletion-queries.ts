// The reads account deletion's steps make (design.md#account-deletion): one bounded page at a time, never a Scan.
// No TTL filter: an expired item still exists until DynamoDB removes it, and deletion removes it now.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../../actions.ts';
import { authorPartition } from '../../keys.ts';
import { INDEXES, KEY } from '../../schema.ts';
import type { Store } from '../../store.ts';
import { callStore } from '../../store-unavailable.ts';

/** The SDK input of one page of a partition's items, optionally those whose SK starts with `prefix`; pure. */
export function partitionPageParams(tableName: string, partition: string, prefix: string | undefined, limit: number): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: prefix === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: prefix === undefined ? { '#pk': KEY.partition } : { '#pk': KEY.partition, '#sk': KEY.sort },
    ExpressionAttributeValues: prefix === undefined ? { ':pk': partition } : { ':pk': partition, ':prefix': prefix },
    ConsistentRead: true,
    Limit: limit,
  };
}

export async function partitionPage(store: Store, partition: string, prefix: string | undefined, limit: number): Promise<StoredItem[]> {
  const output = await callStore(() => store.client.send(new QueryCommand(partitionPageParams(store.tableName, partition, prefix, limit))));
  return (output.Items ?? []) as StoredItem[];
}

/**
 * Slugs of the account's stories on the author index (GSI2), a page. @NOTE a GSI is eventually
 * consistent: a story whose index keys were just removed may still be listed; the step reads its
 * META (consistent) and skips it.
 */
export async function authorStoryPage(store: Store, account: string, limit: number): Promise<string[]> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: INDEXES.author.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.author.partition },
        ExpressionAttributeValues: { ':pk': authorPartition(account) },
        Limit: limit,
      }),
    ),
  );
  return (output.Items ?? []).map((item) => String(item[KEY.partition]).slice('STORY#'.length));
}
