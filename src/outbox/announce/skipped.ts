// What a sweep left alone, and why: the queue entries not due at the sweep's time — a retry
// waiting out its backoff, or a claim a worker still holds (it turns stale, and is taken over,
// only after the stale-claim time). An operator who sees "0 due" learns when something will
// happen instead of guessing. Read-only: the entries' META items are read, nothing is written.
import type { AppContext } from '../../app/context/app-context.ts';
import { storyKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { waitingAnnouncements } from '../../store/story/announce/queue.ts';
import { PENDING } from '../../store/story/claim-marker.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';

export interface SkippedAnnouncement {
  slug: string;
  /** `waiting`: its next attempt is not due yet; `claimed`: a worker holds a live claim. */
  reason: 'waiting' | 'claimed';
  /** waiting: when the next attempt is due (ISO). */
  next_attempt_at?: string;
  /** claimed: since when the claim is held (ISO). */
  claimed_since?: string;
  /** claimed: when the claim turns stale and a sweep takes it over (ISO). */
  stale_at?: string;
  /** The last attempt's error, if one failed. */
  last_error?: string;
}

/** Up to `limit` queue entries not due at `at` (ms), soonest first, each with why it waits. */
export async function skippedAnnouncements(ctx: AppContext, at: number, limit: number): Promise<SkippedAnnouncement[]> {
  const waiting = await waitingAnnouncements(ctx.store, new Date(at).toISOString(), limit);
  if (waiting.length === 0) return [];
  const items = await readItems(
    ctx.store,
    waiting.map((entry) => storyKey(entry.slug)),
  );
  return waiting.flatMap((entry): SkippedAnnouncement[] => {
    const item = pick(items, storyKey(entry.slug));
    if (item === undefined) return [];
    const announce = toStoryMeta(item).announce;
    const lastError = announce.last_error === undefined ? {} : { last_error: announce.last_error };
    if (announce.bsky_uri === PENDING) {
      return [
        {
          slug: entry.slug,
          reason: 'claimed',
          ...(announce.claimed_at === undefined ? {} : { claimed_since: announce.claimed_at }),
          stale_at: entry.dueAt,
          ...lastError,
        },
      ];
    }
    return [{ slug: entry.slug, reason: 'waiting', next_attempt_at: announce.next_attempt_at ?? entry.dueAt, ...lastError }];
  });
}

const inSeconds = (iso: string, at: number): string => `${Math.max(0, Math.ceil((Date.parse(iso) - at) / 1000))} s`;

/** One entry, e.g. `waiting: next attempt in 12 s (at …)` or `claimed by a running worker since … (stale at …)`. */
export function describeSkip(skip: SkippedAnnouncement, at: number): string {
  const error = skip.last_error === undefined ? '' : `; last error: ${skip.last_error}`;
  if (skip.reason === 'claimed') {
    return `claimed by a running worker since ${skip.claimed_since ?? 'an unknown time'}${skip.stale_at === undefined ? '' : ` (taken over from ${skip.stale_at} if it never finishes)`}${error}`;
  }
  const next = skip.next_attempt_at ?? '';
  return `waiting: next attempt in ${inSeconds(next, at)} (at ${next})${error}`;
}

/** The counts, e.g. `1 waiting: next attempt in 12 s; 1 claimed by a running worker since …` (the soonest of each). */
export function summarizeSkipped(skipped: readonly SkippedAnnouncement[], at: number): string {
  const waiting = skipped.filter((skip) => skip.reason === 'waiting');
  const claimed = skipped.filter((skip) => skip.reason === 'claimed');
  const parts: string[] = [];
  if (waiting[0]?.next_attempt_at !== undefined)
    parts.push(`${waiting.length} waiting: next attempt in ${inSeconds(waiting[0].next_attempt_at, at)}`);
  if (claimed.length > 0)
    parts.push(`${claimed.length} claimed by a running worker since ${claimed[0]?.claimed_since ?? 'an unknown time'}`);
  return parts.join('; ');
}
