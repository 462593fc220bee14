// Set-up data written in bulk: thousands of items that a test needs stored, not written by the use
// case under test. BatchWriteItem, 25 items a request, a few requests at once; a transaction per
// 25 or 100 items made DynamoDB Local take tens of seconds for an inbox of 3,000.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../src/store/store.ts';

/** DynamoDB's bound on one BatchWriteItem. */
const BATCH_ITEMS = 25;
/** Requests in flight at once: enough to keep DynamoDB Local busy, few enough for a shared machine. */
const IN_FLIGHT = 4;
/** A batch DynamoDB keeps answering with unprocessed items is a broken set-up, not a slow one. */
const MAX_ROUNDS = 20;

/** Puts every item (unconditioned; keys must be distinct), resending what DynamoDB left unprocessed. */
export async function putItems(store: Store, items: readonly Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += BATCH_ITEMS) batches.push(items.slice(start, start + BATCH_ITEMS));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) await putBatch(store, batches[next++] as Record<string, unknown>[]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function putBatch(store: Store, batch: Record<string, unknown>[]): Promise<void> {
  let requests = batch.map((Item) => ({ PutRequest: { Item } }));
  for (let round = 0; requests.length > 0; round += 1) {
    if (round === MAX_ROUNDS) throw new Error(`putItems: ${requests.length} items still unprocessed after ${MAX_ROUNDS} rounds`);
    const answer = await store.client.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: requests } }));
    requests = (answer.UnprocessedItems?.[store.tableName] ?? []) as typeof requests;
  }
}
