// How hard the announcer tries and how long it waits between tries: the settings, their
// defaults, and the backoff that spaces the retries. Pure: no clock, no store.
import type { AnnounceFailure } from './port.ts';

export interface AnnounceSettings {
  /** Story pages are `<baseUrl>/s/<slug>`: the link card's target. */
  baseUrl: string;
  /** Attempts before the state is `failed`. */
  maxAttempts: number;
  /** Backoff after the first failure; doubles each attempt, up to the cap, with jitter. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /**
   * A claim older than this belongs to a worker that died: longer than one whole attempt (every
   * call of it bounded by the request timeout). A worker whose own claim has used half of it
   * does not post any more.
   */
  staleClaimMs: number;
}

export const DEFAULT_ANNOUNCE_SETTINGS: Omit<AnnounceSettings, 'baseUrl'> = {
  maxAttempts: 8,
  backoffBaseMs: 30_000,
  backoffCapMs: 60 * 60_000,
  staleClaimMs: 5 * 60_000,
};

/** Full jitter on the upper half: base·2^(attempt−1), capped, then between half and all of it. */
export function announceBackoff(
  settings: Pick<AnnounceSettings, 'backoffBaseMs' | 'backoffCapMs'>,
  attempt: number,
  random: number,
): number {
  const ceiling = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.ceil(ceiling / 2 + (random * ceiling) / 2);
}

/**
 * When a failed attempt is tried again (ISO): the backoff of the attempt (counted up to
 * `maxAttempts`, so a deletion retried past it keeps the longest wait), never sooner than the
 * service's own retry-after.
 */
export function retryTime(settings: AnnounceSettings, attempt: number, failure: AnnounceFailure, random: number, now: number): string {
  const wait = Math.max(announceBackoff(settings, Math.min(attempt, settings.maxAttempts), random), failure.retryAfterMs ?? 0);
  return new Date(now + wait).toISOString();
}
