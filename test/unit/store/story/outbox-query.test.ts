import { describe, expect, it } from 'vitest';
import { outboxQueryParams, retireOutboxEvent } from '../../../../src/store/story/outbox-query.ts';

describe('outbox queries', () => {
  it('lists only the events of one kind, consistently, a bounded number at a time', () => {
    expect(outboxQueryParams('t', 'correction#', 25)).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :kind)',
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
      ExpressionAttributeValues: { ':pk': 'OUTBOX', ':kind': 'correction#' },
      ConsistentRead: true,
      Limit: 25,
    });
  });

  it('retires a delivered event with an unconditioned delete: a second retire changes nothing', () => {
    expect(retireOutboxEvent({ PK: 'OUTBOX', SK: 'correction#s#2' })).toEqual({ Delete: { Key: { PK: 'OUTBOX', SK: 'correction#s#2' } } });
  });
});
