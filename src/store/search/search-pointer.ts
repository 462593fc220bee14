// The search pointer (docs/design.md#search): one item naming the newest index snapshot and its
// watermark (every change logged before it is in the snapshot). It only moves from the version a
// job loaded, and only forward, so of two jobs that ran at once one moves it and the other's
// snapshot is left unnamed.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export const searchPointerKey: ItemKey = { PK: 'SEARCH', SK: 'POINTER' };

export interface SearchPointer {
  /** The snapshot object's name in the snapshot store. */
  snapshot: string;
  /** Epoch ms: the log from here (less the overlap) is what the snapshot may lack. */
  watermark: number;
  /** Moves by one on every move; the condition a move is made on. */
  version: number;
  /** When the snapshot was written, epoch ms: an unchanged index is still re-written now and then. */
  written_at: number;
  /**
   * The log entries at or after the watermark less the overlap when the snapshot's job read the
   * log to its end: while the log holds no more there, nothing was logged since and the next job
   * need not load the snapshot. Absent when that read was cut short, and in pointers written before.
   */
  overlap_entries?: number;
}

export async function readSearchPointer(store: Store): Promise<SearchPointer | undefined> {
  const output = await callStore(() =>
    store.client.send(new GetCommand({ TableName: store.tableName, Key: searchPointerKey, ConsistentRead: true })),
  );
  const item = output.Item;
  if (item === undefined) return undefined;
  return {
    snapshot: String(item.snapshot),
    watermark: Number(item.watermark),
    version: Number(item.version),
    written_at: Number(item.written_at),
    ...(item.overlap_entries === undefined ? {} : { overlap_entries: Number(item.overlap_entries) }),
  };
}

/**
 * Names a new snapshot, if the pointer is still the one `from` read (none: it must still be
 * absent) and the watermark only moves forward. False when another job moved it first.
 */
export async function moveSearchPointer(
  store: Store,
  from: SearchPointer | undefined,
  to: Omit<SearchPointer, 'version'>,
): Promise<boolean> {
  const version = (from?.version ?? 0) + 1;
  const condition =
    from === undefined
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : {
          ConditionExpression: 'version = :loaded AND watermark < :watermark',
          ExpressionAttributeValues: { ':loaded': from.version, ':watermark': to.watermark },
        };
  try {
    await callStore(() =>
      store.client.send(new PutCommand({ TableName: store.tableName, Item: { ...searchPointerKey, ...to, version }, ...condition })),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
