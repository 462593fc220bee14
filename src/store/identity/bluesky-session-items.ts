// The atproto OAuth client's session store: `BSKYSESS#<did> / META` holds the person's PDS tokens
// and DPoP key while lorebook needs them, which is only during the callback (sign-in reads the
// DID and handle, then revokes the PDS session and this item goes). The TTL bounds it anyway.
import type { DeleteAction, PutAction, StoredItem } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { replaceItem } from '../replace-by-key.ts';

export interface StoredBlueskySession {
  did: string;
  /** The client's saved session as JSON. */
  session_data: string;
  updated_at: string;
  /** Epoch seconds (the TTL attribute). */
  expires_at: number;
}

export const blueskySessionKey = (did: string): ItemKey => ({ PK: `BSKYSESS#${did}`, SK: 'META' });

/**
 * Replaced by key: the client keeps one session per DID, and a later sign-in of the same person
 * supersedes the earlier one (the client revokes the earlier one first).
 */
export function putBlueskySession(session: StoredBlueskySession): PutAction {
  return replaceItem({ ...blueskySessionKey(session.did), ...session });
}

/** Unconditioned: deleting a session that is already gone is the same outcome, so twice is fine. */
export function deleteBlueskySession(did: string): DeleteAction {
  return { Delete: { Key: blueskySessionKey(did) } };
}

export function toStoredBlueskySession(item: StoredItem): StoredBlueskySession {
  return {
    did: String(item.did),
    session_data: String(item.session_data),
    updated_at: String(item.updated_at),
    expires_at: Number(item.expires_at),
  };
}
