// The handle every store function takes: the client, the table, and the clock. The clock is part
// of the store because TTL expiry is decided at read time against it (DynamoDB deletes late).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Store {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds. */
  now(): number;
}

export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);

/** An item whose TTL has passed is gone, whatever DynamoDB still returns. */
export function isExpired(item: Record<string, unknown>, nowMs: number): boolean {
  const expiresAt = item.expires_at;
  return typeof expiresAt === 'number' && expiresAt <= epochSeconds(nowMs);
}
