import { describe, expect, it } from 'vitest';
import { createDeviceStart, decideDevice, issueDevice, recordPoll } from '../../../../src/store/identity/device-items.ts';

describe('device-flow write conditions', () => {
  it('a decision lands only on a pending request (a double click decides once)', () => {
    const update = decideDevice('h', 'approved', 'did:plc:a', 'T').Update;
    expect(update.Key).toEqual({ PK: 'DEVICE#h', SK: 'META' });
    expect(update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#status = :pending)');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':pending': 'pending', ':s0': 'approved', ':s1': 'did:plc:a' });
  });

  it('a token is issued only from an approval, which it consumes', () => {
    const update = issueDevice('h', 'tok', 'T').Update;
    expect(update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#status = :approved)');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':approved': 'approved', ':s0': 'issued', ':s1': 'tok' });
  });

  it('a poll is counted only against the last poll that was read', () => {
    expect(recordPoll('h', undefined, 5, 5).Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (attribute_not_exists(#last))');
    const later = recordPoll('h', 1000, 2000, 10).Update;
    expect(later.ConditionExpression).toBe('(attribute_exists(PK)) AND (#last = :readLast)');
    expect(later.ExpressionAttributeValues).toMatchObject({ ':readLast': 1000 });
  });

  it('a keyed start is created once, or over an expired one the TTL has not removed yet', () => {
    const put = createDeviceStart({ key_hash: 'k', client: 'c', salt: 's', user_code: 'U', created_at: 'T', expires_at: 10 }, 7).Put;
    expect(put.ConditionExpression).toBe('attribute_not_exists(PK) OR #exp <= :now');
    expect(put.ExpressionAttributeValues).toEqual({ ':now': 7 });
    expect(put.Item).toMatchObject({ PK: 'DEVSTART#k', SK: 'META', salt: 's' });
  });
});
