// Reader flags (docs/moderation.md, design.md#flags-quarantine):
// - `STORY#slug / FLAG#account`: one per (story, account), the latest replaces. `counted` is
//   decided once, at the first flag, like a reproduction's.
// - META keeps the counted flags: `flaggers` (a map account → reason, so a quarantine can name
//   its reasons) and `flag_count`, moved together and conditioned on the count read, so of two
//   flags planned from one read only one can cross the threshold.
// - `ACCOUNT#account / FLAGS`: `stories`, a string set of the slugs the account has flagged; its
//   size is the number of open flags, capped in the write's own condition (primitive 2).
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { Condition } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export const FLAG_REASONS = ['spam', 'unsafe_steps', 'secret_or_personal_data', 'impersonation', 'off_topic', 'duplicate'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

export const flagKey = (slug: string, account: string): ItemKey => ({ PK: `STORY#${slug}`, SK: `FLAG#${account}` });
export const openFlagsKey = (account: string): ItemKey => ({ PK: `ACCOUNT#${account}`, SK: 'FLAGS' });

export interface StoryFlag {
  slug: string;
  account: string;
  reason: FlagReason;
  /** The original's slug, for reason `duplicate`. */
  duplicate_of?: string | undefined;
  note?: string | undefined;
  counted: boolean;
  at: string;
}

export function storyFlagItem(flag: StoryFlag): StoredItem {
  const item: StoredItem = { ...flagKey(flag.slug, flag.account) };
  for (const [field, value] of Object.entries(flag)) if (value !== undefined) item[field] = value;
  return item;
}

export function toStoryFlag(item: StoredItem): StoryFlag {
  return item as unknown as StoryFlag;
}

/** Same reason, original and note: a second flag like it changes nothing. */
export function sameFlag(
  a: Pick<StoryFlag, 'reason' | 'duplicate_of' | 'note'>,
  b: Pick<StoryFlag, 'reason' | 'duplicate_of' | 'note'>,
): boolean {
  return a.reason === b.reason && a.duplicate_of === b.duplicate_of && a.note === b.note;
}

/** The flag is exactly the one read (every replace stamps a new `at`). */
export function flagAsRead(flag: Pick<StoryFlag, 'at'>): Condition {
  return { expression: '#at = :at', names: { '#at': 'at' }, values: { ':at': flag.at } };
}

/** The slugs an account has open flags on (none when it never flagged). */
export function openFlagsOf(item: StoredItem | undefined): ReadonlySet<string> {
  return item?.stories instanceof Set ? (item.stories as Set<string>) : new Set();
}

/** The account's first flag ever: the item is created with the one slug; a second first loses the creation condition. */
export function startOpenFlags(account: string, slug: string): PutAction {
  return createItem({ ...openFlagsKey(account), stories: new Set([slug]) });
}

/** A further open flag: the slug joins only while it is absent and the account is below its cap. */
export function addOpenFlag(account: string, slug: string, cap: number): UpdateAction {
  return updateItem(
    openFlagsKey(account),
    { addClauses: ['#stories :slugSet'], names: { '#stories': 'stories' }, values: { ':slugSet': new Set([slug]) } },
    // The duplicate this prevents: a 21st open flag landing beside a 20th planned from the same read.
    {
      expression: 'NOT contains(#stories, :slug) AND (attribute_not_exists(#stories) OR size(#stories) < :cap)',
      values: { ':slug': slug, ':cap': cap },
    },
  );
}

/** The flag is withdrawn: its slug leaves the account's open flags, once. */
export function removeOpenFlag(account: string, slug: string): UpdateAction {
  return updateItem(
    openFlagsKey(account),
    { deleteClauses: ['#stories :slugSet'], names: { '#stories': 'stories' }, values: { ':slugSet': new Set([slug]) } },
    { expression: 'contains(#stories, :slug)', values: { ':slug': slug } },
  );
}

/** META's counted flags as read: how many, and whether the map exists to add to. */
export interface CountedFlags {
  count: number;
  reasons: Readonly<Record<string, FlagReason>>;
  mapExists: boolean;
}

export function countedFlagsOf(meta: { flag_count?: number; flaggers?: Record<string, FlagReason> }): CountedFlags {
  return { count: meta.flag_count ?? 0, reasons: meta.flaggers ?? {}, mapExists: meta.flaggers !== undefined };
}

/**
 * The count is still the one read. The window it closes: two flags by different accounts planned
 * from one read both counting "the third", so the story would be quarantined twice (or not at all,
 * when one planned from 1 lands after another made it 2).
 */
export function flagCountAsRead(read: CountedFlags): Condition {
  return read.count === 0
    ? {
        expression: 'attribute_not_exists(#flagCount) OR #flagCount = :readCount',
        names: { '#flagCount': 'flag_count' },
        values: { ':readCount': 0 },
      }
    : { expression: '#flagCount = :readCount', names: { '#flagCount': 'flag_count' }, values: { ':readCount': read.count } };
}

/** The clauses that count a new flagger on META; the caller conditions them with flagCountAsRead. */
export function countFlagger(read: CountedFlags, account: string, reason: FlagReason) {
  return {
    setClauses: [read.mapExists ? '#flaggers.#flagger = :reason' : '#flaggers = :flaggers', '#flagCount = :nextCount'],
    names: { '#flaggers': 'flaggers', '#flagCount': 'flag_count', ...(read.mapExists ? { '#flagger': account } : {}) },
    values: { ':nextCount': read.count + 1, ...(read.mapExists ? { ':reason': reason } : { ':flaggers': { [account]: reason } }) },
  };
}

/** A counted flagger changed their reason: the count stays, the map entry moves, from the reason read. */
export function changeFlaggerReason(slugKey: ItemKey, account: string, from: FlagReason, to: FlagReason): UpdateAction {
  return updateItem(
    slugKey,
    { setClauses: ['#flaggers.#flagger = :to'], names: { '#flaggers': 'flaggers', '#flagger': account }, values: { ':to': to } },
    { expression: '#flaggers.#flagger = :from', values: { ':from': from } },
  );
}

/** A counted flag withdrawn: the flagger leaves the map and the count goes back, only while it is in it. */
export function uncountFlagger(slugKey: ItemKey, account: string): UpdateAction {
  return updateItem(
    slugKey,
    {
      setClauses: ['#flagCount = #flagCount - :one'],
      removeClauses: ['#flaggers.#flagger'],
      names: { '#flaggers': 'flaggers', '#flagger': account, '#flagCount': 'flag_count' },
      values: { ':one': 1 },
    },
    { expression: 'attribute_exists(#flaggers.#flagger)' },
  );
}
