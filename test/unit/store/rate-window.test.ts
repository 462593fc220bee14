import { describe, expect, it } from 'vitest';
import { countCallParams, rateWindowKey } from '../../../src/store/rate-window.ts';

describe('rate window params', () => {
  it('add one under the limit condition, upserting the window item with its TTL', () => {
    const start = Date.UTC(2026, 0, 2, 3, 4);
    expect(countCallParams('t', { subject: 'account:a1', windowStartMs: start, limit: 100, expiresAt: 123 })).toEqual({
      TableName: 't',
      Key: { PK: 'RATE#account:a1', SK: '2026-01-02T03:04:00.000Z' },
      UpdateExpression: 'ADD #count :one SET #expires_at = :expires_at',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count', '#expires_at': 'expires_at' },
      ExpressionAttributeValues: { ':one': 1, ':limit': 100, ':expires_at': 123 },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('key each window by its start, so an expired window is never counted into a later one', () => {
    expect(rateWindowKey('ip:::1', 0)).toEqual({ PK: 'RATE#ip:::1', SK: '1970-01-01T00:00:00.000Z' });
    expect(rateWindowKey('ip:::1', 60_000).SK).not.toBe(rateWindowKey('ip:::1', 0).SK);
  });
});
