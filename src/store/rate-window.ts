// The rate window (docs/design.md#data, docs/design.md#surfaces): one item per subject per fixed window, `RATE#<subject> /
// <window start>`, counted with UpdateItem ADD under the condition `count < :limit`. The
// condition IS the limit: every server instance adds to the same item, and a refused call
// writes nothing (no over-count that would stretch the wait), so the budget holds across
// instances without any read-then-write.
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { UpdateAction } from './actions.ts';
import type { ItemKey } from './keys.ts';
import type { Store } from './store.ts';
import { callStore } from './store-unavailable.ts';

export interface RateWindow {
  /** `account:<id>`, `ip:<address>`, or `global:<what>` for a budget every caller shares. */
  subject: string;
  /** Epoch ms of the window's first instant. */
  windowStartMs: number;
  limit: number;
  /** TTL, epoch seconds: some time after the window ends, so a late retry never sees it. */
  expiresAt: number;
}

export type WindowCount = { allowed: true; count: number } | { allowed: false };

export const rateWindowKey = (subject: string, windowStartMs: number): ItemKey => ({
  PK: `RATE#${subject}`,
  SK: new Date(windowStartMs).toISOString(),
});

/**
 * The SDK input of one counted call; pure, so the condition is unit-tested as written.
 * @NOTE An upsert on purpose: the first call of a window creates the item, so unlike every other
 * UpdateItem here it carries no attribute_exists(PK). The window's start is in its key, so an
 * expired item DynamoDB has not deleted yet is never counted into a later window.
 */
export function countCallParams(tableName: string, window: RateWindow): UpdateCommandInput {
  return { TableName: tableName, ...countCallAction(window).Update, ReturnValues: 'UPDATED_NEW' };
}

/** The same count as a transaction action, to count a write in the transaction that makes it. */
export function countCallAction(window: RateWindow): UpdateAction {
  return {
    Update: {
      Key: rateWindowKey(window.subject, window.windowStartMs),
      UpdateExpression: 'ADD #count :one SET #expires_at = :expires_at',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count', '#expires_at': 'expires_at' },
      ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':expires_at': window.expiresAt },
    },
  };
}

/** Counts one call in the window, or refuses it (writing nothing) once the window is full. */
export async function countCall(store: Store, window: RateWindow): Promise<WindowCount> {
  try {
    const output = await callStore(() => store.client.send(new UpdateCommand(countCallParams(store.tableName, window))));
    return { allowed: true, count: Number(output.Attributes?.count) };
  } catch (error) {
    // The condition failing is the answer "over the limit", not a store failure.
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return { allowed: false };
    throw error;
  }
}
