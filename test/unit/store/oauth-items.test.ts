// The conditions that make the OAuth records single-use, asserted as SDK parameters (the
// integration tests prove the behaviour against DynamoDB Local).
import { describe, expect, it } from 'vitest';
import { consumeAuthCode } from '../../../src/store/identity/auth-code-items.ts';
import { decideConsent } from '../../../src/store/identity/consent-items.ts';
import { extendGrant } from '../../../src/store/identity/grant-items.ts';
import { registerOAuthClient } from '../../../src/store/identity/oauth-client-items.ts';
import { rotateRefreshToken } from '../../../src/store/identity/refresh-token-items.ts';

describe('single-use conditions', () => {
  it('a code is consumed only if it was not consumed before (and exists)', () => {
    expect(consumeAuthCode('h', 'now').Update).toMatchObject({
      Key: { PK: 'AUTHCODE#h', SK: 'META' },
      ConditionExpression: '(attribute_exists(PK)) AND (attribute_not_exists(#consumed))',
    });
  });

  it('a refresh token is rotated only once', () => {
    expect(rotateRefreshToken('h', 'now').Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (attribute_not_exists(#rotated))');
  });

  it('a consent is decided only once', () => {
    expect(decideConsent('h', 'approved', 9).Update.ConditionExpression).toBe(
      '(attribute_exists(PK)) AND (attribute_not_exists(#decision))',
    );
  });

  it('a revoked grant mints nothing: every mint extends the grant conditioned on no revocation', () => {
    const [grant, listing] = extendGrant({ grant_id: 'g', account: 'did:plc:a' }, 1);
    expect(grant?.Update.ConditionExpression).toBe('(attribute_exists(PK)) AND (attribute_not_exists(#revoked))');
    expect(listing?.Update.Key).toEqual({ PK: 'ACCOUNT#did:plc:a', SK: 'GRANT#g' });
  });

  it('a client registration replaces only an absent or expired item', () => {
    const put = registerOAuthClient(
      { client_id: 'lbc_x', client_name: 'x', redirect_uris: [], grant_types: [], client_id_issued_at: 0, expires_at: 1 },
      5000,
    );
    expect(put.Put).toMatchObject({
      ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
      ExpressionAttributeValues: { ':now': 5 },
    });
  });
});
