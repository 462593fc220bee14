// Consistent reads by key. Writes plan from `readSnapshot` (one TransactGetItems: never half of
// a competing transaction); reads use `readItems` (BatchGetItem, half the capacity, each item
// consistent on its own), so a retry after a lost response sees its own write at once.
import { BatchGetCommand, GetCommand, TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from './actions.ts';
import { type ItemKey, keyId } from './keys.ts';
import { isExpired, type Store } from './store.ts';
import { callStore, storeUnavailable } from './store-unavailable.ts';

/** BatchGetItem takes at most 100 keys. */
const MAX_BATCH_KEYS = 100;
/** Unprocessed keys come back under throttling; retry them a bounded number of times. */
const MAX_UNPROCESSED_ROUNDS = 5;

export type ItemsByKey = ReadonlyMap<string, StoredItem>;

export interface ReadItemsOptions {
  /** Only these attributes (keys and `expires_at` should be among them); default: whole items. */
  attributes?: readonly string[];
  /** Batches of 100 in flight at once; default 1. More overlaps round trips on long key lists. */
  batchesInFlight?: number;
}

/** Reads many items in one round trip (per 100 keys); expired items are treated as absent. */
export async function readItems(store: Store, keys: readonly ItemKey[], options: ReadItemsOptions = {}): Promise<ItemsByKey> {
  const unique = [...new Map(keys.map((k) => [keyId(k), { PK: k.PK, SK: k.SK }])).values()];
  const projection = options.attributes === undefined ? {} : projectionOf(options.attributes);
  const batches: ItemKey[][] = [];
  for (let start = 0; start < unique.length; start += MAX_BATCH_KEYS) batches.push(unique.slice(start, start + MAX_BATCH_KEYS));
  const inFlight = options.batchesInFlight ?? 1;
  const found = new Map<string, StoredItem>();
  for (let next = 0; next < batches.length; next += inFlight) {
    const read = await Promise.all(batches.slice(next, next + inFlight).map((batch) => readBatch(store, batch, projection)));
    for (const item of read.flat()) if (!isExpired(item, store.now())) found.set(keyId(item), item);
  }
  return found;
}

async function readBatch(store: Store, keys: ItemKey[], projection: object): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let pending = keys;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round === MAX_UNPROCESSED_ROUNDS) throw storeUnavailable({ name: 'ThrottlingException' }) as Error;
    const output = await callStore(() =>
      store.client.send(
        new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: pending, ConsistentRead: true, ...projection } } }),
      ),
    );
    items.push(...((output.Responses?.[store.tableName] ?? []) as StoredItem[]));
    pending = (output.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as ItemKey[];
  }
  return items;
}

function projectionOf(attributes: readonly string[]): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  return {
    ProjectionExpression: attributes.map((_name, index) => `#a${index}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#a${index}`, name])),
  };
}

export async function readItem(store: Store, key: ItemKey): Promise<StoredItem | undefined> {
  const output = await callStore(() => store.client.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true })));
  const item = output.Item as StoredItem | undefined;
  return item === undefined || isExpired(item, store.now()) ? undefined : item;
}

export function pick(items: ItemsByKey, key: ItemKey): StoredItem | undefined {
  return items.get(keyId(key));
}

/** TransactGetItems takes at most 100 keys. */
export const MAX_SNAPSHOT_KEYS = 100;

/** Thrown when a snapshot read met a write transaction in flight on one of its items: read again after a jittered wait. */
export class ReadConflict extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super('snapshot read cancelled by a transaction in flight', options);
    this.name = 'ReadConflict';
  }
}

/**
 * Reads up to 100 items as one snapshot (TransactGetItems), serializable with TransactWriteItems.
 * A plan that derives its answer from two items written together (REPRO#account and META's
 * counts) must never see half of another transaction: BatchGetItem is only read-committed per
 * item and can return the REPRO of a transaction whose META update it does not show yet.
 */
export async function readSnapshot(store: Store, keys: readonly ItemKey[]): Promise<ItemsByKey> {
  const unique = [...new Map(keys.map((k) => [keyId(k), { PK: k.PK, SK: k.SK }])).values()];
  if (unique.length > MAX_SNAPSHOT_KEYS) throw new Error(`a snapshot read takes at most ${MAX_SNAPSHOT_KEYS} keys, got ${unique.length}`);
  const found = new Map<string, StoredItem>();
  if (unique.length === 0) return found;
  const output = await callStore(async () => {
    try {
      return await store.client.send(
        new TransactGetCommand({ TransactItems: unique.map((Key) => ({ Get: { TableName: store.tableName, Key } })) }),
      );
    } catch (error) {
      const reasons = (error as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      if ((error as { name?: string }).name === 'TransactionCanceledException' && reasons.some((r) => r.Code === 'TransactionConflict')) {
        throw new ReadConflict({ cause: error });
      }
      throw error;
    }
  });
  for (const response of output.Responses ?? []) {
    const item = response.Item as StoredItem | undefined;
    if (item !== undefined && !isExpired(item, store.now())) found.set(keyId(item), item);
  }
  return found;
}
