// One account's drafts, newest first: a page of its `ACCOUNT#<id> / DRAFT#<created_at>#<id>` list
// items (as drafter and as claimer), then the drafts themselves in one BatchGetItem. One Query
// of at most `limit` items per page: the position to continue from is a list item's sort key.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { pick, readItems } from '../read-items.ts';
import { KEY } from '../schema.ts';
import { isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { type Draft, type DraftRole, draftKey, draftListPrefix, toDraft } from './draft-items.ts';

export interface DraftListPage {
  drafts: { role: DraftRole; draft: Draft }[];
  /** The sort key to continue after; absent on the last page. */
  next?: string;
}

export async function queryDrafts(store: Store, account: string, limit: number, after: string | undefined): Promise<DraftListPage> {
  const partition = `ACCOUNT#${account}`;
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
        ExpressionAttributeValues: { ':pk': partition, ':prefix': draftListPrefix },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit,
        ...(after === undefined ? {} : { ExclusiveStartKey: { [KEY.partition]: partition, [KEY.sort]: after } }),
      }),
    ),
  );
  const listed = ((output.Items ?? []) as StoredItem[]).filter((item) => !isExpired(item, store.now()));
  const found = await readItems(
    store,
    listed.map((item) => draftKey(String(item.draft))),
  );
  const drafts = listed.flatMap((item) => {
    const stored = pick(found, draftKey(String(item.draft)));
    return stored === undefined ? [] : [{ role: item.role as DraftRole, draft: toDraft(stored) }];
  });
  const last = output.LastEvaluatedKey?.[KEY.sort];
  return { drafts, ...(typeof last === 'string' ? { next: last } : {}) };
}
