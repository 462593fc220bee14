// The revision history of one story, oldest first, without the markdown of each revision (it
// is up to 64 KiB each; the history needs only what changed, when and why).
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { revisionPrefix, storyKey } from '../keys.ts';
import { isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export const REVISION_HISTORY_ATTRIBUTES = ['PK', 'SK', 'revision', 'kind', 'note', 'source', 'at', 'redacted', 'expires_at'] as const;

export function revisionsQueryParams(tableName: string, slug: string, startKey?: Record<string, unknown>): QueryCommandInput {
  // Every attribute goes through a name: `source` and `at` collide with reserved words.
  const names = Object.fromEntries(REVISION_HISTORY_ATTRIBUTES.map((attribute, index) => [`#a${index}`, attribute]));
  return {
    TableName: tableName,
    KeyConditionExpression: '#a0 = :pk AND begins_with(#a1, :rev)',
    ProjectionExpression: Object.keys(names).join(', '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':pk': storyKey(slug).PK, ':rev': revisionPrefix },
    // A republish reads its own history at once.
    ConsistentRead: true,
    ScanIndexForward: true,
    ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
  };
}

/** Every live revision of the story, oldest first (REV# numbers are zero-padded, so they sort). */
export async function queryRevisions(store: Store, slug: string): Promise<StoredItem[]> {
  const revisions: StoredItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await callStore(() => store.client.send(new QueryCommand(revisionsQueryParams(store.tableName, slug, startKey))));
    for (const item of (output.Items ?? []) as StoredItem[]) if (!isExpired(item, store.now())) revisions.push(item);
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
  return revisions;
}
