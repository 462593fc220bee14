// Whether an account may still act, and whether a credential is still its own (design.md#account-deletion, design.md#bans):
// an account being deleted, deleted or banned acts no more, and a credential created before a
// deletion finished (`reset_at` on a new account made over the tombstone) or before a ban
// (`reset_at` set by the ban) belongs to the old account, or stays revoked after an unban.
import { LorebookError } from '../../domain/errors.ts';
import type { StoredItem } from '../../store/actions.ts';
import { accountStanding } from '../../store/identity/account/deletion-items.ts';

/** A credential (token, refresh token, web session, device code) created at `createdAt` still speaks for the account item read. */
export function credentialStands(accountItem: StoredItem | undefined, createdAt: string, whileDeleting = false): boolean {
  const standing = accountStanding(accountItem);
  // Only the deletion request itself, asked again, is let through while the deletion runs.
  if (standing.kind === 'deleting') return whileDeleting;
  if (standing.kind === 'deleted' || standing.kind === 'banned') return false;
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

/** The answer to every call of a banned account: 403, not retryable, with the operator's reason. */
export function accountSuspended(reason: string, since: string): LorebookError {
  return new LorebookError(
    'account_suspended',
    `This account is suspended by the instance's operator since ${since}: ${reason}. Nothing can be read or written with its tokens, sessions or grants, and they stay revoked even if the suspension is lifted. Do not retry; the person may contact the operator.`,
    { details: { reason: 'account_suspended', ban_reason: reason, since } },
  );
}

/** The refusal for a credential that no longer stands: suspended when banned, revoked when older than a reset, else gone. */
export function credentialRefusal(accountItem: StoredItem | undefined): LorebookError {
  const standing = accountStanding(accountItem);
  if (standing.kind === 'banned') return accountSuspended(standing.reason, standing.since);
  if (standing.kind === 'live') {
    return new LorebookError(
      'unauthenticated',
      'This credential was revoked: its account was deleted or suspended after it was created, and credentials from before stay revoked. Sign in again for a new one. Do not retry with the same token.',
      { details: { reason: 'credential_revoked' } },
    );
  }
  return accountGone();
}

/** Throws when the account item read says the account is being deleted, was deleted or is banned. */
export function refuseGoneAccount(accountItem: StoredItem | undefined): void {
  const standing = accountStanding(accountItem);
  if (standing.kind === 'banned') throw accountSuspended(standing.reason, standing.since);
  if (standing.kind === 'deleting' || standing.kind === 'deleted') throw accountGone();
}
