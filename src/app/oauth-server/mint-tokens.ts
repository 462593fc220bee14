// One access token and one refresh token for a grant, as the actions that store them: the token
// items the bearer lookup reads (TOKEN#<sha256>, bound to the resource, short-lived), the refresh
// token, and their member entries under the grant so revoking the family finds them.

import { mintRefreshToken, secretHash } from '../../auth/oauth/oauth-secrets.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { heldScopes, scopeString } from '../../auth/oauth/scopes.ts';
import { mintToken, tokenId } from '../../auth/token-secret.ts';
import type { WriteAction } from '../../store/actions.ts';
import { addGrantMember, type Grant } from '../../store/identity/grant-items.ts';
import { createRefreshToken } from '../../store/identity/refresh-token-items.ts';
import { createTokenItems } from '../../store/identity/token-items.ts';
import { epochSeconds } from '../../store/store.ts';

/** RFC 6749 §5.1. */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** RFC 6749 §5.1: what the tokens may do, always said (a client that asked for less learns it got it). */
  scope: string;
}

export interface MintedTokens {
  answer: TokenAnswer;
  actions: WriteAction[];
  /** Epoch seconds: the refresh token's expiry, which the grant's follows. */
  refreshExpiresAt: number;
}

export function mintTokens(
  oauth: OAuthServer,
  grant: Pick<Grant, 'grant_id' | 'account' | 'client_id' | 'client_name' | 'resource'> & { scope?: string },
  nowMs: number,
): MintedTokens {
  const access = mintToken();
  const refresh = mintRefreshToken();
  const accessHash = tokenId(access);
  const refreshHash = secretHash(refresh);
  const createdAt = new Date(nowMs).toISOString();
  const accessExpiresAt = epochSeconds(nowMs) + oauth.settings.accessTokenSeconds;
  const refreshExpiresAt = epochSeconds(nowMs) + oauth.settings.refreshTokenSeconds;
  return {
    answer: {
      access_token: access,
      token_type: 'Bearer',
      expires_in: oauth.settings.accessTokenSeconds,
      refresh_token: refresh,
      scope: scopeString(heldScopes(grant.scope)),
    },
    refreshExpiresAt,
    actions: [
      ...createTokenItems({
        token_hash: accessHash,
        account: grant.account,
        client: grant.client_name,
        created_at: createdAt,
        expires_at: accessExpiresAt,
        resource: grant.resource,
        grant_id: grant.grant_id,
        client_id: grant.client_id,
        ...(grant.scope === undefined ? {} : { scope: grant.scope }),
      }),
      addGrantMember(grant.grant_id, { kind: 'TOKEN', hash: accessHash, account: grant.account }, accessExpiresAt),
      createRefreshToken({
        refresh_hash: refreshHash,
        grant_id: grant.grant_id,
        account: grant.account,
        client_id: grant.client_id,
        client_name: grant.client_name,
        resource: grant.resource,
        ...(grant.scope === undefined ? {} : { scope: grant.scope }),
        created_at: createdAt,
        expires_at: refreshExpiresAt,
      }),
      addGrantMember(grant.grant_id, { kind: 'REFRESH', hash: refreshHash, account: grant.account }, refreshExpiresAt),
    ],
  };
}
