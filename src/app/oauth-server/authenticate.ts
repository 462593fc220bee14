// Who is calling: `Authorization: Bearer <token>` -> the token's account -> the Caller. A token
// is looked up by its sha256 with a consistent read; expiry is decided here against the clock
// (DynamoDB deletes TTL'd items days late). The handle is resolved from the account, never copied
// onto the token. With `ctx.verifiedTokens` a token read within the last 30 s is trusted without
// reading it (or its account) again: a revocation by this process holds from the next call, one
// made elsewhere within 30 s (context/verified-tokens.ts). A token minted by lorebook's OAuth server is
// bound to one resource (RFC 8707, its `resource`): presented anywhere else it is refused like an
// unknown one. Admin and device tokens carry no resource and are valid for /mcp and /v1 alike.

import { heldScopes } from '../../auth/oauth/scopes.ts';
import { isWellFormedToken, tokenId } from '../../auth/token-secret.ts';
import { LorebookError } from '../../domain/errors.ts';
import { tokenKey, toStoredToken } from '../../store/identity/token-items.ts';
import { accountKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { credentialRefusal, credentialStands } from '../caller/account-standing.ts';
import type { AppContext, Caller, VerifiedToken } from '../context/app-context.ts';

/** RFC 6750 §2.1 (the scheme is case-insensitive, RFC 9110 §11.1). */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The caller of a request, or undefined when no Authorization header was sent (an anonymous
 * call; the access rule decides whether that is enough). A header that is sent but not a live
 * token is refused, never quietly treated as anonymous. Reads only; never writes.
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined, resource?: string): Promise<Caller | undefined> {
  const authenticated = await authenticateAlongside(ctx, authorization, resource);
  await authenticated?.standing();
  return authenticated?.caller;
}

export interface Authenticated {
  caller: Caller;
  /**
   * Settles once the account is known to stand (design.md#account-deletion); rejects with `unauthenticated` when
   * it is being deleted or was deleted. A token read from the store was checked with its read
   * (already settled); a remembered one has its account item read now, beside the call, so a
   * deletion accepted by any process is honoured from that moment without a round trip in
   * sequence. Started by the first call (so a call refused before it runs, by a window already
   * seen full, costs no read) and the same promise after; the caller must await it before
   * committing and before answering.
   */
  standing(): Promise<void>;
}

/** authenticate, with a remembered token's account check left running beside the call (admission.ts awaits it). */
export async function authenticateAlongside(
  ctx: AppContext,
  authorization: string | undefined,
  resource?: string,
  whileDeleting = false,
): Promise<Authenticated | undefined> {
  if (authorization === undefined) return undefined;
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined || !isWellFormedToken(token)) {
    throw unauthenticated('The Authorization header is not `Bearer <token>` with a lorebook token (lbk_…).', 'malformed');
  }
  const tokenHash = tokenId(token);
  const remembered = ctx.verifiedTokens?.lookUp(tokenHash, ctx.store.now());
  const verified = remembered ?? (await readToken(ctx, tokenHash, whileDeleting));
  if (verified.resource !== undefined && verified.resource !== resource) {
    throw new LorebookError(
      'unauthenticated',
      `This token was issued for ${verified.resource}, not for ${resource ?? 'this endpoint'}. Get a token for this resource (send resource=${resource ?? '<this URL>'} in the OAuth authorization and token requests). Do not retry with the same token.`,
      { details: { reason: 'wrong_resource' } },
    );
  }
  if (remembered === undefined) return { caller: verified.caller, standing: () => Promise.resolve() };
  let started: Promise<void> | undefined;
  const standing = (): Promise<void> => {
    if (started === undefined) {
      started = checkStanding(ctx, tokenHash, verified, whileDeleting);
      // Observed at once so a refusal nobody awaits yet is not reported as unhandled; the caller awaits it.
      started.catch(() => undefined);
    }
    return started;
  };
  return { caller: verified.caller, standing };
}

/** A remembered token's account, read again: deleted since it was remembered, the token is forgotten and refused. */
async function checkStanding(ctx: AppContext, tokenHash: string, verified: VerifiedToken, whileDeleting: boolean): Promise<void> {
  const account = await readItem(ctx.store, accountKey(verified.caller.account));
  if (credentialStands(account, verified.createdAt, whileDeleting)) return;
  ctx.verifiedTokens?.forget([tokenHash]);
  throw credentialRefusal(account);
}

/** The token and its account's current handle from the store, remembered when the process keeps verified tokens. */
async function readToken(ctx: AppContext, tokenHash: string, whileDeleting: boolean): Promise<VerifiedToken> {
  const mark = ctx.verifiedTokens?.mark();
  const readAtMs = ctx.store.now();
  // The read filters expired items against the store clock.
  const item = await readItem(ctx.store, tokenKey(tokenHash));
  if (item === undefined) {
    throw unauthenticated('This token is unknown, revoked or expired.', 'invalid');
  }
  const stored = toStoredToken(item);
  const account = await readItem(ctx.store, accountKey(stored.account));
  // A token of an account being deleted or deleted, or of the account a later sign-in replaced (design.md#account-deletion).
  if (!credentialStands(account, stored.created_at, whileDeleting)) throw credentialRefusal(account);
  const handle = account === undefined ? stored.account : String(account.handle);
  const verified: VerifiedToken = {
    caller: {
      account: stored.account,
      handle,
      ...(stored.client === undefined ? {} : { client: stored.client }),
      ...(stored.scope === undefined ? {} : { scopes: heldScopes(stored.scope) }),
    },
    ...(stored.resource === undefined ? {} : { resource: stored.resource }),
    expiresAt: stored.expires_at,
    createdAt: stored.created_at,
  };
  if (mark !== undefined) ctx.verifiedTokens?.remember(tokenHash, verified, readAtMs, mark);
  return verified;
}

function unauthenticated(what: string, reason: 'malformed' | 'invalid'): LorebookError {
  return new LorebookError(
    'unauthenticated',
    `${what} An OAuth client refreshes its token (or authorizes again); otherwise ask the person you work for for a valid token (they create one with \`npm run token -- create --handle <handle>\`) and send it as \`Authorization: Bearer <token>\`. Do not retry with the same token.`,
    { details: { reason } },
  );
}
