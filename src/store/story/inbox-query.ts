// One account's inbox, newest first (PK INBOX#account, SK = notification id N#<at>#<hash>).
// DynamoDB applies Limit before a filter, so an unread-only page is filled over a few rounds; the
// position to continue from is always a notification id, never a server-made token.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { inboxPartition } from '../keys.ts';
import { KEY } from '../schema.ts';
import { isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export interface InboxQuery {
  account: string;
  /** Notifications wanted (a page). */
  limit: number;
  /** Continue after this notification id (exclusive), going older. */
  after?: string;
  /** Only notifications whose id sorts at or before this one. */
  upTo?: string;
  unreadOnly: boolean;
  /** Items DynamoDB evaluates per round; defaults to what is still wanted. */
  evaluatePerRound?: number;
  /** Rounds before answering a short page with a position to continue from. */
  maxRounds?: number;
}

export interface InboxPage {
  items: StoredItem[];
  /** The id to continue after; absent when nothing older matches. */
  next?: string;
}

const DEFAULT_MAX_ROUNDS = 5;

/** The SDK input of one round; pure, so its expressions are unit-tested as written. */
export function inboxQueryParams(tableName: string, query: InboxQuery, after: string | undefined, evaluate: number): QueryCommandInput {
  const names: Record<string, string> = { '#pk': KEY.partition };
  const values: Record<string, unknown> = { ':pk': inboxPartition(query.account) };
  let keyCondition = '#pk = :pk';
  if (query.upTo !== undefined) {
    keyCondition += ' AND #sk <= :upTo';
    names['#sk'] = KEY.sort;
    values[':upTo'] = query.upTo;
  }
  if (query.unreadOnly) {
    names['#read'] = 'read';
    values[':false'] = false;
  }
  return {
    TableName: tableName,
    KeyConditionExpression: keyCondition,
    ...(query.unreadOnly ? { FilterExpression: '#read = :false' } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
    // Consistent: a mark-read re-plan must see the write that cancelled it.
    ConsistentRead: true,
    Limit: evaluate,
    ...(after === undefined ? {} : { ExclusiveStartKey: { [KEY.partition]: inboxPartition(query.account), [KEY.sort]: after } }),
  };
}

export async function queryInbox(store: Store, query: InboxQuery): Promise<InboxPage> {
  const items: StoredItem[] = [];
  let after = query.after;
  for (let round = 0; round < (query.maxRounds ?? DEFAULT_MAX_ROUNDS); round += 1) {
    const evaluate = query.evaluatePerRound ?? query.limit - items.length;
    const output = await callStore(() => store.client.send(new QueryCommand(inboxQueryParams(store.tableName, query, after, evaluate))));
    for (const item of (output.Items ?? []) as StoredItem[]) {
      if (isExpired(item, store.now())) continue;
      if (items.length === query.limit) return { items, next: lastId(items) };
      items.push(item);
    }
    const lastEvaluated = output.LastEvaluatedKey?.[KEY.sort] as string | undefined;
    if (lastEvaluated === undefined) return { items };
    // A full page may be the last one; the next call finds out (one round trip, no guess).
    if (items.length === query.limit) return { items, next: lastId(items) };
    after = lastEvaluated;
  }
  return { items, next: after };
}

const lastId = (items: readonly StoredItem[]): string => (items[items.length - 1] as StoredItem).SK;
