import { describe, expect, it } from 'vitest';
import { accountItem, changeHandle, createAccount, toAccount } from '../../../../../src/store/identity/account/items.ts';

const account = { id: 'did:plc:abc', handle: 'alice.test', created_at: '2026-11-30T09:00:00.000Z' };

describe('account items', () => {
  it('the account lives at ACCOUNT#id / META and maps back to the same account', () => {
    const item = accountItem(account);
    expect(item).toEqual({ PK: 'ACCOUNT#did:plc:abc', SK: 'META', ...account });
    expect(toAccount(item)).toEqual(account);
  });

  it('creating an account is conditioned on nothing being stored at its key', () => {
    const { Put } = createAccount(account);
    expect(Put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(Put.Item).toEqual(accountItem(account));
  });

  it('a handle change is conditioned on the item existing and still holding the handle read', () => {
    const { Update } = changeHandle('did:plc:abc', 'alice.test', 'alice.example.com');
    expect(Update.Key).toEqual({ PK: 'ACCOUNT#did:plc:abc', SK: 'META' });
    expect(Update.UpdateExpression).toBe('SET #s0 = :s0');
    expect(Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (#handle = :from)');
    expect(Update.ExpressionAttributeNames).toEqual({ '#s0': 'handle', '#handle': 'handle' });
    expect(Update.ExpressionAttributeValues).toEqual({ ':s0': 'alice.example.com', ':from': 'alice.test' });
  });
});
