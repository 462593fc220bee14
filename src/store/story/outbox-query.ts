// Outbox events waiting for their dispatcher, and the delete that retires one delivered.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DeleteAction, StoredItem } from '../actions.ts';
import { type ItemKey, outboxPartition } from '../keys.ts';
import { KEY } from '../schema.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

/** The SDK input; `kindPrefix` (e.g. `correction#`) keeps a dispatcher to the events it knows. */
export function outboxQueryParams(tableName: string, kindPrefix: string, limit: number): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :kind)',
    ExpressionAttributeNames: { '#pk': KEY.partition, '#sk': KEY.sort },
    ExpressionAttributeValues: { ':pk': outboxPartition, ':kind': kindPrefix },
    ConsistentRead: true,
    Limit: limit,
  };
}

/** @NOTE no TTL filter: outbox events carry no expires_at; only delivery retires one. */
export async function listOutboxEvents(store: Store, kindPrefix: string, limit: number): Promise<StoredItem[]> {
  const output = await callStore(() => store.client.send(new QueryCommand(outboxQueryParams(store.tableName, kindPrefix, limit))));
  return (output.Items ?? []) as StoredItem[];
}

/**
 * Retires a delivered event. Deliberately unconditioned: every recipient already has the
 * notification, event ids are never reused, and deleting an event another dispatcher already
 * retired changes nothing — a condition would only turn that harmless race into an error.
 */
export function retireOutboxEvent(key: ItemKey): DeleteAction {
  return { Delete: { Key: { [KEY.partition]: key.PK, [KEY.sort]: key.SK } } };
}
