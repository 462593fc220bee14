// Token revocation (RFC 7009) for the client that holds the token. A refresh token revokes its
// whole grant family (§2.1: the access tokens of the same grant go with it); an access token is
// deleted on its own. Unknown, expired or already revoked tokens answer the same 200 (§2.2), so a
// second revocation changes nothing and tells nothing.

import { isWellFormedRefreshToken, secretHash } from '../../auth/oauth/oauth-secrets.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { isWellFormedToken, tokenId } from '../../auth/token-secret.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import { grantMemberKey } from '../../store/identity/grant-items.ts';
import { refreshKey, toRefreshToken } from '../../store/identity/refresh-token-items.ts';
import { deleteTokenItems, type StoredToken, tokenKey, toStoredToken } from '../../store/identity/token-items.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';
import { knownClient } from './known-client.ts';
import { revokeGrantFamily } from './revoke-grant.ts';

export async function revokeByClient(ctx: AppContext, oauth: OAuthServer, form: URLSearchParams): Promise<void> {
  const token = form.get('token') ?? '';
  if (token === '') throw new OAuthError('invalid_request', 'token is required.');
  const clientId = form.get('client_id') ?? '';
  if (clientId === '' || (await knownClient(ctx, oauth, clientId).catch(() => undefined)) === undefined) {
    throw new OAuthError('invalid_client', 'client_id is missing, unknown or expired.', 401);
  }
  if (isWellFormedRefreshToken(token)) {
    const item = await readItem(ctx.store, refreshKey(secretHash(token)));
    if (item === undefined) return;
    const refresh = toRefreshToken(item);
    if (refresh.client_id !== clientId) throw notYours();
    if (await revokeGrantFamily(ctx, refresh.grant_id))
      oauth.log(`lorebook: oauth grant ${refresh.grant_id} revoked by its client ${clientId}`);
    return;
  }
  if (!isWellFormedToken(token)) return;
  const item = await readItem(ctx.store, tokenKey(tokenId(token)));
  if (item === undefined) return;
  const stored = toStoredToken(item);
  // Only tokens this client was issued through OAuth: an admin or device token is not the client's to revoke.
  if (stored.client_id !== clientId || stored.grant_id === undefined) throw notYours();
  await deleteAccessToken(ctx, stored);
}

/** Deletes one token (and its entry under its grant); false when a concurrent revocation was first. */
export async function deleteAccessToken(ctx: AppContext, stored: StoredToken): Promise<boolean> {
  const member =
    stored.grant_id === undefined ? [] : [{ Delete: { Key: grantMemberKey(stored.grant_id, { kind: 'TOKEN', hash: stored.token_hash }) } }];
  try {
    await writeAtomically(ctx.store, [...deleteTokenItems(stored), ...member]);
    return true;
  } catch (error) {
    // A concurrent revocation deleted it first: revoked either way.
    if (!(error instanceof WriteCancelled)) throw error;
    return false;
  } finally {
    ctx.verifiedTokens?.forget([stored.token_hash]);
  }
}

const notYours = (): OAuthError => new OAuthError('unauthorized_client', 'This token was not issued to this client; nothing was revoked.');
