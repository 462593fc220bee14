// The review queue, newest first (review-queue-items.ts): one bounded Query.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { REVIEW_QUEUE_PARTITION, type ReviewEntry } from './review-queue-items.ts';

export async function queryReviewQueue(store: Store, limit: number): Promise<ReviewEntry[]> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': REVIEW_QUEUE_PARTITION },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: limit,
      }),
    ),
  );
  return (output.Items ?? []).map(({ PK: _pk, SK: _sk, ...entry }) => entry as ReviewEntry);
}
