// Whether an account may still act, and whether a credential is still its own (design §21): an
// account being deleted or deleted acts no more, and a credential created before a deletion
// finished (`reset_at` on a new account made over the tombstone) belongs to the old account.
import { LorebookError } from '../../domain/errors.ts';
import type { StoredItem } from '../../store/actions.ts';
import { accountStanding } from '../../store/identity/account-deletion-items.ts';

/** A credential (token, refresh token, web session, device code) created at `createdAt` still speaks for the account item read. */
export function credentialStands(accountItem: StoredItem | undefined, createdAt: string, whileDeleting = false): boolean {
  const standing = accountStanding(accountItem);
  // Only the deletion request itself, asked again, is let through while the deletion runs.
  if (standing.kind === 'deleting') return whileDeleting;
  if (standing.kind === 'deleted') return false;
  if (standing.kind === 'live' && standing.resetAt !== undefined) return createdAt > standing.resetAt;
  return true;
}

/** The answer to a call by an account that is being deleted or was deleted: the same 401 as a revoked token. */
export function accountGone(): LorebookError {
  return new LorebookError(
    'unauthenticated',
    'This account was deleted (or its deletion is under way): its tokens, sessions and refresh tokens no longer work. Signing in again starts a new, empty account. Do not retry with the same token.',
    { details: { reason: 'account_deleted' } },
  );
}

/** Throws accountGone when the account item read says the account is being deleted or was deleted. */
export function refuseGoneAccount(accountItem: StoredItem | undefined): void {
  const kind = accountStanding(accountItem).kind;
  if (kind === 'deleting' || kind === 'deleted') throw accountGone();
}
