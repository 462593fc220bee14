// Whose flag counts toward a hold (docs/moderation.md): an established account — old enough that
// making accounts to push a story off the site costs a day's wait — and never the story's author.
// The one place the rule lives; a banned account's flag never counts (design §27).
import type { StoredItem } from '../../store/actions.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface FlaggerFacts {
  account: string;
  /** The flagger's account item as read in the write's snapshot (absent for accounts made before account items). */
  accountItem: StoredItem | undefined;
  /** The story's author. */
  author: string;
  now: number;
  newAccountHours: number;
}

export function countsTowardQuarantine(facts: FlaggerFacts): boolean {
  if (facts.account === facts.author) return false;
  if (facts.accountItem?.banned !== undefined) return false;
  // @NOTE an account with no item has no age to show, so its flag is kept but not counted.
  const createdAt = typeof facts.accountItem?.created_at === 'string' ? Date.parse(facts.accountItem.created_at) : Number.NaN;
  if (Number.isNaN(createdAt)) return false;
  return facts.now - createdAt >= facts.newAccountHours * HOUR_MS;
}
