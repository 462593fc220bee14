// The reads a ban's sweep makes (design.md#bans): the next item after a cursor, one at a time, never a
// Scan. Reports are found from the account's `ONSTORY#<slug>` index items (design.md#account-deletion), stories
// from the author index (GSI2, sorted `<published_at>#<slug>`, which no change of a story moves).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { accountKey, authorPartition } from '../keys.ts';
import { INDEXES, KEY } from '../schema.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { ON_STORY_PREFIX } from './account/index-items.ts';

/** The account's next report index item after `after` (its SK), or undefined past the last. */
export async function nextReportIndex(store: Store, account: string, after: string | undefined): Promise<StoredItem | undefined> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: '#pk = :pk AND #sk > :after',
        ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
        ExpressionAttributeValues: { ':pk': accountKey(account).PK, ':after': after ?? ON_STORY_PREFIX },
        ConsistentRead: true,
        Limit: 1,
      }),
    ),
  );
  const item = output.Items?.[0] as StoredItem | undefined;
  return item !== undefined && String(item[KEY.sort]).startsWith(ON_STORY_PREFIX) ? item : undefined;
}

/** The account's next story on the author index after `after` (its GSI2SK): slug and sort key. */
export async function nextAuthorStory(
  store: Store,
  account: string,
  after: string | undefined,
): Promise<{ slug: string; sortKey: string } | undefined> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: INDEXES.author.name,
        KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk > :after',
        ExpressionAttributeNames:
          after === undefined ? { '#pk': INDEXES.author.partition } : { '#pk': INDEXES.author.partition, '#sk': INDEXES.author.sort },
        ExpressionAttributeValues:
          after === undefined ? { ':pk': authorPartition(account) } : { ':pk': authorPartition(account), ':after': after },
        Limit: 1,
      }),
    ),
  );
  const item = output.Items?.[0];
  if (item === undefined) return undefined;
  return { slug: String(item[KEY.partition]).slice('STORY#'.length), sortKey: String(item[INDEXES.author.sort]) };
}
