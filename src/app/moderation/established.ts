// Established and new accounts (docs/moderation.md): an account is new for its first
// LOREBOOK_NEW_ACCOUNT_HOURS, so making accounts to push a story off the site, or to flood the
// site and its Bluesky account, costs a day's wait. The one place the rule lives; a banned
// account's flag never counts (design.md#bans).
import type { StoredItem } from '../../store/actions.ts';
import { accountKey } from '../../store/keys.ts';
import { type ItemsByKey, pick } from '../../store/read-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';

const HOUR_MS = 60 * 60 * 1000;

/** When the account stops being new (ms), from its account item; undefined when the item shows no age. */
function establishedAt(accountItem: StoredItem | undefined, newAccountHours: number): number | undefined {
  const createdAt = typeof accountItem?.created_at === 'string' ? Date.parse(accountItem.created_at) : Number.NaN;
  return Number.isNaN(createdAt) ? undefined : createdAt + newAccountHours * HOUR_MS;
}

export interface FlaggerFacts {
  account: string;
  /** The flagger's account item as read in the write's snapshot (absent for accounts made before account items). */
  accountItem: StoredItem | undefined;
  /** The story's author. */
  author: string;
  now: number;
  newAccountHours: number;
}

/** A flag counts toward a hold from an established account, never from the author. */
export function countsTowardQuarantine(facts: FlaggerFacts): boolean {
  if (facts.account === facts.author) return false;
  if (facts.accountItem?.banned !== undefined) return false;
  // @NOTE an account with no item has no age to show, so its flag is kept but not counted.
  const at = establishedAt(facts.accountItem, facts.newAccountHours);
  return at !== undefined && facts.now >= at;
}

/**
 * While the account is new: the moment it becomes established (ISO); undefined once it is, or
 * when its item shows no age. Every account that can write has an item (sign-in and token
 * minting create it); one without predates account items, so it is not new.
 */
export function newUntil(accountItem: StoredItem | undefined, now: number, newAccountHours: number): string | undefined {
  const at = establishedAt(accountItem, newAccountHours);
  return at !== undefined && now < at ? new Date(at).toISOString() : undefined;
}

/** Whether the caller is a new account at `now`, from its account item in a write's snapshot (every write reads it). */
export function isNewAccount(ctx: AppContext, read: ItemsByKey, caller: Caller, now: number): boolean {
  return newUntil(pick(read, accountKey(caller.account)), now, ctx.config.newAccountHours) !== undefined;
}
