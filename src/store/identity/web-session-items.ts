// The web session (a signed-in browser): `WEBSESS#<sha256 of the cookie> / META` names the
// account. Keyed by the hash so a leaked table cannot be replayed as cookies; `expires_at` is the
// TTL, and reads drop expired items themselves because DynamoDB deletes them days late.
import type { DeleteAction, PutAction, StoredItem } from '../actions.ts';
import { itemExists } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { createItem, deleteItemIf } from '../replace-by-key.ts';

export interface StoredWebSession {
  /** sha256 hex of the cookie value. */
  session_hash: string;
  account: string;
  created_at: string;
  /** Epoch seconds (the TTL attribute). */
  expires_at: number;
}

export const webSessionKey = (sessionHash: string): ItemKey => ({ PK: `WEBSESS#${sessionHash}`, SK: 'META' });

/** Created once: the key is the hash of 32 random bytes, so a second delivery fails instead of writing a second row. */
export function createWebSession(session: StoredWebSession): PutAction {
  return createItem({ ...webSessionKey(session.session_hash), ...session });
}

/** Deletes the session while it exists; a second logout finds nothing and writes nothing. */
export function deleteWebSession(sessionHash: string): DeleteAction {
  return deleteItemIf(webSessionKey(sessionHash), itemExists);
}

export function toStoredWebSession(item: StoredItem): StoredWebSession {
  return {
    session_hash: String(item.session_hash),
    account: String(item.account),
    created_at: String(item.created_at),
    expires_at: Number(item.expires_at),
  };
}
