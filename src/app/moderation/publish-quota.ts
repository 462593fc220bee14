// How many stories an account may first publish a UTC day, and whether its announcements wait
// (docs/design.md#new-accounts, docs/moderation.md): a new account publishes at most
// LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY and its stories wait on the announce queue until it is
// established; an established one publishes LOREBOOK_STORIES_PER_DAY. Only a first publish
// counts: a republish, an edit or the same publish delivered again finds its story and is not
// a new one.
import { LorebookError } from '../../domain/errors.ts';
import type { WriteAction } from '../../store/actions.ts';
import { accountKey, type ItemKey } from '../../store/keys.ts';
import { type ItemsByKey, pick } from '../../store/read-items.ts';
import { epochSeconds } from '../../store/store.ts';
import { countPublishInDay, publishDayKey, slugsOfDay } from '../../store/story/publish-day-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { newUntil } from './established.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const startOfNextDay = (now: number): number => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/** The day item a publish by `caller` at `now` (ms) reads: today's, UTC. */
export const publishDayRead = (caller: Caller, now: number): ItemKey =>
  publishDayKey(caller.account, new Date(now).toISOString().slice(0, 10));

export interface PublishQuota {
  /** The slug joining the day's count. */
  count: WriteAction;
  /** While the author is new: when its announcement is released (ISO). */
  heldUntil: string | undefined;
}

/**
 * A first publish of `slug` at `now`, from the snapshot (which read `dayKey`, the day the publish
 * started in): counted, or refused with rate_limited when the day is full.
 */
export function planPublishQuota(
  ctx: AppContext,
  read: ItemsByKey,
  caller: Caller,
  { slug, dayKey, now }: { slug: string; dayKey: ItemKey; now: number },
): PublishQuota {
  const heldUntil = newUntil(pick(read, accountKey(caller.account)), now, ctx.config.newAccountHours);
  const limit = heldUntil === undefined ? ctx.config.storiesPerDay : ctx.config.newAccountStoriesPerDay;
  const dayItem = pick(read, dayKey);
  if (slugsOfDay(dayItem).size >= limit) throw dailyLimitReached(now, limit, heldUntil);
  const count = countPublishInDay(
    { account: caller.account, day: dayKey.SK, slug, limit, expiresAt: epochSeconds(startOfNextDay(now) + DAY_MS) },
    dayItem,
  );
  return { count, heldUntil };
}

function dailyLimitReached(now: number, limit: number, heldUntil: string | undefined): LorebookError {
  const who = heldUntil === undefined ? '' : ` (your account is new until ${heldUntil}; then the limit is higher)`;
  return new LorebookError(
    'rate_limited',
    `You have published ${limit} new stories today, the limit for one UTC day${who}. Nothing was stored. Republishing or editing a story you already published is not limited; publish this one after retry_after_ms (midnight UTC).`,
    { retryAfterMs: startOfNextDay(now) - now, details: { limit, window: 'UTC day' } },
  );
}
