// The account item (docs/design.md#data identity): `ACCOUNT#id / META` holds the stable id and the current
// handle. Every per-person key uses the id; the handle is display data resolved from here.
import type { PutAction, StoredItem, UpdateAction } from '../../actions.ts';
import { accountKey } from '../../keys.ts';
import { createItem } from '../../replace-by-key.ts';
import { updateItem } from '../../update-item.ts';

export interface Account {
  /** The DID for Bluesky sign-ins, a generated stable id for locally created accounts. */
  id: string;
  handle: string;
  created_at: string;
}

export function accountItem(account: Account): StoredItem {
  return { ...accountKey(account.id), id: account.id, handle: account.handle, created_at: account.created_at };
}

export function toAccount(item: StoredItem): Account {
  return { id: String(item.id), handle: String(item.handle), created_at: String(item.created_at) };
}

/** Creates the account once: a second sign-in racing the first fails here instead of resetting created_at. */
export function createAccount(account: Account): PutAction {
  return createItem(accountItem(account));
}

/**
 * Moves the handle from the one that was read to the new one. Conditioned on the old handle so a
 * handle change that landed after the read is re-read and re-planned, never blindly overwritten.
 */
export function changeHandle(id: string, from: string, to: string): UpdateAction {
  return updateItem(
    accountKey(id),
    { set: { handle: to } },
    { expression: '#handle = :from', names: { '#handle': 'handle' }, values: { ':from': from } },
  );
}
