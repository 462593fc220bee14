// The account page's data and actions (issue 8, deliver 4): the signed-in person's live tokens
// (admin-issued, device and OAuth access tokens) and connected apps (grants), and revoking one of
// them. Only the person's own: a token or grant id of someone else's answers "not found" and
// nothing is written. Revoking twice finds nothing the second time and writes nothing.
import { LorebookError } from '../../domain/errors.ts';
import { type Grant, grantKey, queryAccountGrants, toGrant } from '../../store/identity/grant-items.ts';
import { queryAccountTokens, type StoredToken, tokenKey, toStoredToken } from '../../store/identity/token-items.ts';
import { readItem } from '../../store/read-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { revokeGrantFamily } from './revoke-grant.ts';
import { deleteAccessToken } from './revoke-token.ts';

export interface AccountAccess {
  tokens: StoredToken[];
  grants: Grant[];
}

export async function accountAccess(ctx: AppContext, account: string): Promise<AccountAccess> {
  // A revoked grant's listing item is deleted by the revocation itself (a cut-off one still shows,
  // and revoking it again finishes the job), so there is nothing to filter here.
  const [tokens, grants] = await Promise.all([queryAccountTokens(ctx.store, account), queryAccountGrants(ctx.store, account)]);
  return { tokens, grants };
}

export type RevokeTarget = { kind: 'token'; id: string } | { kind: 'grant'; id: string };

/** Whether something live was revoked by this call (false: already gone). */
export async function revokeForAccount(ctx: AppContext, account: string, target: RevokeTarget): Promise<boolean> {
  if (target.kind === 'token') {
    const item = await readItem(ctx.store, tokenKey(target.id));
    if (item === undefined) return false;
    const stored = toStoredToken(item);
    if (stored.account !== account) throw notYours();
    return deleteAccessToken(ctx, stored);
  }
  const item = await readItem(ctx.store, grantKey(target.id));
  if (item === undefined) return false;
  if (toGrant(item).account !== account) throw notYours();
  return revokeGrantFamily(ctx, target.id);
}

const notYours = (): LorebookError =>
  new LorebookError(
    'not_found',
    'There is no such token or connected app on your account. Reload your account page to see what is there now.',
    { details: { reason: 'not_yours' } },
  );
