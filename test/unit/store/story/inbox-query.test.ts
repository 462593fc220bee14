import { describe, expect, it } from 'vitest';
import { inboxQueryParams } from '../../../../src/store/story/inbox-query.ts';

const base = { account: 'acct-alice', limit: 20, unreadOnly: false };

describe('inboxQueryParams', () => {
  it('reads one inbox newest first, consistently, evaluating the given number of items', () => {
    expect(inboxQueryParams('t', base, undefined, 20)).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'PK' },
      ExpressionAttributeValues: { ':pk': 'INBOX#acct-alice' },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: 20,
    });
  });

  it('continues after a notification id in the same inbox', () => {
    expect(inboxQueryParams('t', base, 'N#2026-11-01T00:00:00.000Z#0123456789abcdef', 5).ExclusiveStartKey).toEqual({
      PK: 'INBOX#acct-alice',
      SK: 'N#2026-11-01T00:00:00.000Z#0123456789abcdef',
    });
  });

  it('up_to bounds the sort key and unread_only filters out read notifications', () => {
    const params = inboxQueryParams(
      't',
      { ...base, upTo: 'N#2026-11-01T00:00:00.000Z#0123456789abcdef', unreadOnly: true },
      undefined,
      1000,
    );
    expect(params.KeyConditionExpression).toBe('#pk = :pk AND #sk <= :upTo');
    expect(params.FilterExpression).toBe('#read = :false');
    expect(params.ExpressionAttributeNames).toEqual({ '#pk': 'PK', '#sk': 'SK', '#read': 'read' });
    expect(params.ExpressionAttributeValues).toEqual({
      ':pk': 'INBOX#acct-alice',
      ':upTo': 'N#2026-11-01T00:00:00.000Z#0123456789abcdef',
      ':false': false,
    });
  });
});
