// One story's reader flags for the operator's `moderate show` (design.md#operators-audit): one bounded Query.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { storyKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { type StoryFlag, toStoryFlag } from '../story/flag-items.ts';

/** Past this many, `moderate show` says there are more; a story is held long before. */
export const MAX_FLAGS_READ = 100;

export async function queryStoryFlags(store: Store, slug: string): Promise<StoryFlag[]> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :flag)',
        ExpressionAttributeValues: { ':pk': storyKey(slug).PK, ':flag': 'FLAG#' },
        ConsistentRead: true,
        Limit: MAX_FLAGS_READ,
      }),
    ),
  );
  return (output.Items ?? []).map((item) => toStoryFlag(item as Parameters<typeof toStoryFlag>[0]));
}
