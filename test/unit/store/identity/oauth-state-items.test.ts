import { describe, expect, it } from 'vitest';
import { consumeOAuthStateParams } from '../../../../src/store/identity/oauth-state-items.ts';

describe('consuming a pending sign-in state', () => {
  it('is one conditional update: exists, not used yet, not past its TTL; returns the item', () => {
    const params = consumeOAuthStateParams('t', 'abc', 1_700_000_000_500);
    expect(params).toEqual({
      TableName: 't',
      Key: { PK: 'OAUTHSTATE#abc', SK: 'META' },
      UpdateExpression: 'SET #used = :now',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#used) AND #exp > :nowSeconds',
      ExpressionAttributeNames: { '#used': 'used_at', '#exp': 'expires_at' },
      ExpressionAttributeValues: { ':now': '2023-11-14T22:13:20.500Z', ':nowSeconds': 1_700_000_000 },
      ReturnValues: 'ALL_NEW',
    });
  });
});
