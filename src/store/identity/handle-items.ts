// The handle item (local accounts): `HANDLE#<handle> / META` maps a handle an admin typed to the
// stable account id generated for it. Created once, conditioned on the handle being free, so two
// `token create --handle alice` racing each other end with one account, never two.
import type { PutAction, StoredItem } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';

export interface HandleClaim {
  handle: string;
  account: string;
  created_at: string;
}

export const handleKey = (handle: string): ItemKey => ({ PK: `HANDLE#${handle}`, SK: 'META' });

/** Claims the handle for the account; a second claim of the same handle fails its condition. */
export function claimHandle(claim: HandleClaim): PutAction {
  return createItem({ ...handleKey(claim.handle), handle: claim.handle, account: claim.account, created_at: claim.created_at });
}

export function toHandleClaim(item: StoredItem): HandleClaim {
  return { handle: String(item.handle), account: String(item.account), created_at: String(item.created_at) };
}
