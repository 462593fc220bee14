// The token endpoint's grants (RFC 6749 §4.1.3 and §6, OAuth 2.1): an authorization code with
// its PKCE verifier, or a refresh token, from a public client. Each exchange is one transaction:
// the code is consumed (or the refresh token rotated) conditioned on it being unused, together
// with the tokens it yields, so one code or refresh token yields exactly one set of tokens. A
// second presentation of a used code or of an already-rotated refresh token is the signature of
// a stolen credential: it is refused and the whole grant family is revoked (OAuth 2.1 §4.1.3,
// §4.3.1). Any other refusal writes nothing.

import { isWellFormedRefreshToken, secretHash } from '../../auth/oauth/oauth-secrets.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { verifierMatches } from '../../auth/oauth/pkce.ts';
import { heldScopes, parseScope, scopeString } from '../../auth/oauth/scopes.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import { accountAcceptsCredential, accountStillHere } from '../../store/identity/account/deletion-items.ts';
import { authCodeKey, consumeAuthCode, toAuthCode } from '../../store/identity/auth-code-items.ts';
import { extendGrant } from '../../store/identity/grant-items.ts';
import type { KnownClient } from '../../store/identity/oauth-client-items.ts';
import { keepAuthorizedClient } from '../../store/identity/oauth-client-items.ts';
import { refreshKey, rotateRefreshToken, toRefreshToken } from '../../store/identity/refresh-token-items.ts';
import { pick } from '../../store/read-items.ts';
import { epochSeconds } from '../../store/store.ts';
import type { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';
import { type LoopPlan, writeLoop } from '../write/write-loop.ts';
import { knownClient } from './known-client.ts';
import { mintTokens, type TokenAnswer } from './mint-tokens.ts';
import { revokeGrantFamily } from './revoke-grant.ts';

/** Thrown out of a plan when a used credential comes back: the family is revoked, then refused. */
class CredentialReused extends Error {
  readonly grantId: string;
  constructor(grantId: string) {
    super('a used authorization code or rotated refresh token was presented again');
    this.grantId = grantId;
  }
}

export async function tokenRequest(ctx: AppContext, oauth: OAuthServer, form: URLSearchParams): Promise<TokenAnswer> {
  const field = (name: string): string | undefined => {
    const values = form.getAll(name);
    if (values.length > 1) throw new OAuthError('invalid_request', `${name} is sent more than once.`);
    return values[0] === '' ? undefined : values[0];
  };
  const grantType = field('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required: authorization_code or refresh_token.');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported: use authorization_code or refresh_token.`);
  }
  const clientId = field('client_id');
  const client = clientId === undefined ? undefined : await knownClient(ctx, oauth, clientId).catch(asUnauthorized);
  if (clientId === undefined || client === undefined) {
    throw new OAuthError(
      'invalid_client',
      'client_id is missing, unknown or expired: register the client again (POST /oauth/register).',
      401,
    );
  }
  if (!client.grant_types.includes(grantType)) {
    throw new OAuthError(
      'unauthorized_client',
      `This client registered grant_types ${client.grant_types.join(', ')}; ${grantType} is not one of them.`,
    );
  }
  const resource = field('resource');
  if (resource !== undefined && resource !== oauth.resource) {
    throw new OAuthError('invalid_target', `lorebook issues tokens for one resource only: ${oauth.resource}.`);
  }
  try {
    return grantType === 'authorization_code' ? await exchangeCode(ctx, oauth, client, field) : await refresh(ctx, oauth, client, field);
  } catch (error) {
    if (!(error instanceof CredentialReused)) throw error;
    oauth.log(
      `lorebook: WARNING oauth ${grantType === 'authorization_code' ? 'authorization code' : 'refresh token'} of grant ${error.grantId} (client ${clientId}) presented again: revoking the whole grant`,
    );
    await revokeGrantFamily(ctx, error.grantId);
    throw new OAuthError(
      'invalid_grant',
      grantType === 'authorization_code'
        ? 'This authorization code was already used. Every token it issued is now revoked: start the authorization again.'
        : 'This refresh token was already used (rotated). The whole grant is now revoked: start the authorization again.',
    );
  }
}

async function exchangeCode(
  ctx: AppContext,
  oauth: OAuthServer,
  client: KnownClient,
  field: (name: string) => string | undefined,
): Promise<TokenAnswer> {
  const clientId = client.client_id;
  const code = field('code');
  const redirectUri = field('redirect_uri');
  const verifier = field('code_verifier');
  if (code === undefined || redirectUri === undefined || verifier === undefined) {
    throw new OAuthError('invalid_request', 'An authorization_code request needs code, redirect_uri and code_verifier (PKCE).');
  }
  const key = authCodeKey(secretHash(code));
  return writeLoop<TokenAnswer>(ctx, {
    reads: [key],
    plan(read, { now }): LoopPlan<TokenAnswer> {
      const stored = pick(read, key);
      if (stored === undefined)
        throw new OAuthError('invalid_grant', 'The authorization code is unknown or expired: start the authorization again.');
      const issued = toAuthCode(stored);
      if (issued.client_id !== clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
      if (issued.consumed_at !== undefined) throw new CredentialReused(issued.grant_id);
      if (issued.redirect_uri !== redirectUri)
        throw new OAuthError('invalid_grant', 'redirect_uri differs from the one in the authorization request (it must match exactly).');
      if (!verifierMatches(verifier, issued.code_challenge))
        throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge (PKCE S256).');
      const minted = mintTokens(
        oauth,
        {
          grant_id: issued.grant_id,
          account: issued.account,
          client_id: issued.client_id,
          client_name: issued.client_name,
          resource: issued.resource,
          ...(issued.scope === undefined ? {} : { scope: issued.scope }),
        },
        now,
      );
      return {
        outcome: minted.answer,
        actions: [
          consumeAuthCode(issued.code_hash, new Date(now).toISOString()),
          ...extendGrant({ grant_id: issued.grant_id, account: issued.account }, minted.refreshExpiresAt),
          ...minted.actions,
          // The client completed an authorization: no longer a pending registration (a document client has no record).
          ...keepClient(client, now, oauth),
          accountStillHere(issued.account),
        ],
      };
    },
    answerCancelled: refuseDeletedAccount,
  }).catch((error: unknown) => Promise.reject(grantGone(error)));
}

async function refresh(
  ctx: AppContext,
  oauth: OAuthServer,
  client: KnownClient,
  field: (name: string) => string | undefined,
): Promise<TokenAnswer> {
  const clientId = client.client_id;
  const presented = field('refresh_token');
  const askedScope = field('scope');
  if (presented === undefined) throw new OAuthError('invalid_request', 'A refresh_token request needs refresh_token.');
  if (!isWellFormedRefreshToken(presented))
    throw new OAuthError('invalid_grant', 'The refresh token is unknown, revoked or expired: start the authorization again.');
  const key = refreshKey(secretHash(presented));
  return writeLoop<TokenAnswer>(ctx, {
    reads: [key],
    plan(read, { now }): LoopPlan<TokenAnswer> {
      const stored = pick(read, key);
      if (stored === undefined)
        throw new OAuthError('invalid_grant', 'The refresh token is unknown, revoked or expired: start the authorization again.');
      const token = toRefreshToken(stored);
      if (token.client_id !== clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
      if (token.rotated_at !== undefined) throw new CredentialReused(token.grant_id);
      const held = scopeString(heldScopes(token.scope));
      if (askedScope !== undefined && scopeString(parseScope(askedScope) ?? []) !== held)
        throw new OAuthError(
          'invalid_scope',
          `A refresh keeps the scopes of the authorization (${held}); send that scope or none. For other scopes, authorize again.`,
        );
      const minted = mintTokens(
        oauth,
        {
          grant_id: token.grant_id,
          account: token.account,
          client_id: token.client_id,
          client_name: token.client_name,
          resource: token.resource,
          ...(token.scope === undefined ? {} : { scope: token.scope }),
        },
        now,
      );
      return {
        outcome: minted.answer,
        actions: [
          rotateRefreshToken(token.refresh_hash, new Date(now).toISOString()),
          ...extendGrant({ grant_id: token.grant_id, account: token.account }, minted.refreshExpiresAt),
          ...minted.actions,
          // A client in use outlives its longest refresh family.
          ...keepClient(client, now, oauth),
          accountAcceptsCredential(token.account, token.created_at),
        ],
      };
    },
    answerCancelled: refuseDeletedAccount,
  }).catch((error: unknown) => Promise.reject(grantGone(error)));
}

/**
 * The account check failed: the account is being deleted, was deleted, or was made again after
 * this credential (design.md#account-deletion). Told like a revoked grant; nothing was minted.
 */
function refuseDeletedAccount(cancelled: WriteCancelled): undefined {
  if (
    cancelled.reasons.some(
      (reason) => reason.code === 'ConditionalCheckFailed' && reason.key.PK.startsWith('ACCOUNT#') && reason.key.SK === 'META',
    )
  ) {
    throw new OAuthError(
      'invalid_grant',
      'This account was deleted: its refresh tokens and codes no longer work. Sign in and authorize again.',
    );
  }
  return undefined;
}

const keepClient = (client: KnownClient, nowMs: number, oauth: OAuthServer) =>
  client.metadata_document === true
    ? []
    : [keepAuthorizedClient(client.client_id, nowMs, epochSeconds(nowMs) + oauth.settings.clientSeconds)];

/** A metadata document client whose document cannot be used is refused like an unknown client: 401 invalid_client. */
function asUnauthorized(error: unknown): never {
  if (error instanceof OAuthError && error.error === 'invalid_client') throw new OAuthError('invalid_client', error.message, 401);
  throw error;
}

/** writeLoop gives up with `conflict` when a condition keeps failing: here that means the grant was revoked meanwhile. */
function grantGone(error: unknown): unknown {
  return isLorebookError(error) && error.code === 'conflict'
    ? new OAuthError('invalid_grant', 'The grant was revoked: start the authorization again.')
    : error;
}
