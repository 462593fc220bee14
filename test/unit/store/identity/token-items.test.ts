import { describe, expect, it } from 'vitest';
import { claimHandle, handleKey } from '../../../../src/store/identity/handle-items.ts';
import {
  accountTokenKey,
  accountTokensQueryParams,
  createTokenItems,
  deleteTokenItems,
  tokenKey,
} from '../../../../src/store/identity/token-items.ts';

describe('token and handle items', () => {
  const token = { token_hash: 'ab'.repeat(32), account: 'acct_1', created_at: '2026-01-01T00:00:00.000Z', expires_at: 99 };

  it('a token is created as two items keyed by its hash, each only once', () => {
    const [meta, listing] = createTokenItems({ ...token, client: 'c' });
    expect(meta).toEqual({
      Put: {
        Item: { ...tokenKey(token.token_hash), ...token, client: 'c' },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    expect(listing?.Put.Item).toMatchObject(accountTokenKey('acct_1', token.token_hash));
    expect(listing?.Put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(createTokenItems(token)[0]?.Put.Item).not.toHaveProperty('client');
  });

  it('revocation deletes both items, each only while it exists', () => {
    expect(deleteTokenItems(token)).toEqual([
      { Delete: { Key: { PK: `TOKEN#${token.token_hash}`, SK: 'META' }, ConditionExpression: 'attribute_exists(PK)' } },
      { Delete: { Key: { PK: 'ACCOUNT#acct_1', SK: `TOKEN#${token.token_hash}` }, ConditionExpression: 'attribute_exists(PK)' } },
    ]);
  });

  it("an account's tokens are one consistent query on its partition", () => {
    expect(accountTokensQueryParams('t', 'acct_1')).toEqual({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
      ExpressionAttributeValues: { ':pk': 'ACCOUNT#acct_1', ':prefix': 'TOKEN#' },
      ConsistentRead: true,
    });
  });

  it('a handle is claimed once', () => {
    expect(claimHandle({ handle: 'alice', account: 'acct_1', created_at: 'x' })).toEqual({
      Put: {
        Item: { ...handleKey('alice'), handle: 'alice', account: 'acct_1', created_at: 'x' },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
  });
});
