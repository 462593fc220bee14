// `PUBDAY#<account> / <yyyy-mm-dd>` (UTC): the slugs the account first published that day
// (docs/design.md#new-accounts). The day's count IS the set's size, and a slug joins only under the
// condition that it is not in it yet and the set is below the limit, so a publish delivered twice
// counts once and of 16 parallel first publishes only the limit's worth join (primitive 2).
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export const publishDayKey = (account: string, day: string): ItemKey => ({ PK: `PUBDAY#${account}`, SK: day });

/** The slugs a day item holds (none when there is no item yet). */
export function slugsOfDay(item: StoredItem | undefined): ReadonlySet<string> {
  const slugs = item?.slugs;
  return slugs instanceof Set ? (slugs as Set<string>) : new Set();
}

export interface PublishDay {
  account: string;
  /** `yyyy-mm-dd`, UTC. */
  day: string;
  slug: string;
  limit: number;
  /** TTL, epoch seconds: after the day is over nothing reads it. */
  expiresAt: number;
}

/** The slug joins the day: the day's first publish creates the item, a later one adds to it under the limit. */
export function countPublishInDay(day: PublishDay, existing: StoredItem | undefined): PutAction | UpdateAction {
  if (existing === undefined) {
    return createItem({ ...publishDayKey(day.account, day.day), slugs: new Set([day.slug]), expires_at: day.expiresAt });
  }
  return updateItem(
    publishDayKey(day.account, day.day),
    { addClauses: ['#slugs :slugSet'], names: { '#slugs': 'slugs' }, values: { ':slugSet': new Set([day.slug]) } },
    // What this prevents: a publish past the limit planned from the same read as the last one allowed.
    { expression: 'NOT contains(#slugs, :slug) AND size(#slugs) < :limit', values: { ':slug': day.slug, ':limit': day.limit } },
  );
}
