// The thin runner: adds the table name, sends, and turns SDK failures into WriteCancelled (a
// condition or a competing transaction said no) or a retryable store_unavailable. Nothing else
// in the code base catches SDK errors.

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteItem, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { actionKey, type StoredItem, type WriteAction } from './actions.ts';
import { keyId } from './keys.ts';
import type { Store } from './store.ts';
import { storeUnavailable } from './store-unavailable.ts';
import { type CancellationReason, WriteCancelled } from './write-cancelled.ts';

/** DynamoDB allows at most 100 actions in one TransactWriteItems. */
export const MAX_TRANSACTION_ACTIONS = 100;

/**
 * Sends the actions atomically. Identical actions on one key are sent once; two different
 * actions on one key are a planning bug (DynamoDB would cancel the whole transaction).
 */
export async function writeAtomically(store: Store, actions: readonly WriteAction[]): Promise<void> {
  const unique = dedupeByKey(actions);
  if (unique.length === 0) return;
  if (unique.length > MAX_TRANSACTION_ACTIONS) {
    throw new Error(`a transaction holds at most ${MAX_TRANSACTION_ACTIONS} actions, got ${unique.length}`);
  }
  try {
    if (unique.length === 1) await sendSingle(store, unique[0] as WriteAction);
    else await store.client.send(new TransactWriteCommand({ TransactItems: unique.map((a) => withTable(store, a)) }));
  } catch (error) {
    throw translate(error, unique);
  }
}

export function dedupeByKey(actions: readonly WriteAction[]): WriteAction[] {
  const byKey = new Map<string, WriteAction>();
  for (const action of actions) {
    const id = keyId(actionKey(action));
    const seen = byKey.get(id);
    if (seen === undefined) byKey.set(id, action);
    else if (JSON.stringify(seen) !== JSON.stringify(action)) {
      throw new Error(`two different actions on one item (${id.replace('\u0000', '/')}) would cancel the transaction`);
    }
  }
  return [...byKey.values()];
}

// Every action asks for the existing item when its condition fails, so the caller can converge
// or replay (an op record lost to a concurrent delivery) without another read.
const ON_CONDITION_FAILURE = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;

function withTable(store: Store, action: WriteAction): TransactWriteItem {
  const extra = { TableName: store.tableName, ...ON_CONDITION_FAILURE };
  if ('Put' in action) return { Put: { ...action.Put, ...extra } };
  if ('Update' in action) return { Update: { ...action.Update, ...extra } };
  if ('Delete' in action) return { Delete: { ...action.Delete, ...extra } };
  return { ConditionCheck: { ...action.ConditionCheck, ...extra } };
}

// A single action is sent as a plain write: half the capacity of a one-item transaction, and
// a ConditionCheck alone has no single-write form, so it always goes through a transaction.
async function sendSingle(store: Store, action: WriteAction): Promise<void> {
  const TableName = store.tableName;
  if ('Put' in action) await store.client.send(new PutCommand({ ...action.Put, ...ON_CONDITION_FAILURE, TableName }));
  else if ('Update' in action) await store.client.send(new UpdateCommand({ ...action.Update, ...ON_CONDITION_FAILURE, TableName }));
  else if ('Delete' in action) await store.client.send(new DeleteCommand({ ...action.Delete, ...ON_CONDITION_FAILURE, TableName }));
  else await store.client.send(new TransactWriteCommand({ TransactItems: [withTable(store, action)] }));
}

interface SdkError {
  name?: string;
  Item?: Record<string, AttributeValue>;
  CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[];
}

function translate(error: unknown, actions: readonly WriteAction[]): unknown {
  const sdk = error as SdkError;
  if (sdk.name === 'ConditionalCheckFailedException') {
    const key = actionKey(actions[0] as WriteAction);
    return new WriteCancelled([{ key, code: 'ConditionalCheckFailed', item: toItem(sdk.Item) }], { cause: error });
  }
  if (sdk.name === 'TransactionCanceledException') {
    const reasons: CancellationReason[] = [];
    let throttled = false;
    (sdk.CancellationReasons ?? []).forEach((reason, index) => {
      const action = actions[index];
      if (action === undefined) return;
      if (reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict') {
        reasons.push({ key: actionKey(action), code: reason.Code, item: toItem(reason.Item) });
      } else if (reason.Code === 'ThrottlingError' || reason.Code === 'ProvisionedThroughputExceeded') {
        throttled = true;
      }
    });
    if (throttled) return storeUnavailable(error);
    if (reasons.length > 0) return new WriteCancelled(reasons, { cause: error });
    return error;
  }
  if (sdk.name === 'TransactionConflictException') {
    return new WriteCancelled(
      actions.map((a) => ({ key: actionKey(a), code: 'TransactionConflict' as const, item: undefined })),
      { cause: error },
    );
  }
  return storeUnavailable(error) ?? error;
}

function toItem(image: Record<string, AttributeValue> | undefined): StoredItem | undefined {
  return image === undefined ? undefined : (unmarshall(image) as StoredItem);
}
