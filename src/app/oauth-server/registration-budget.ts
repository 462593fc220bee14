// The budget of new client registrations (anonymous writes any caller can make), per client
// address: at most `registrationsPerHour` per clock hour from one address across all instances,
// counted in that address's rate window in the same transaction that creates the client. Per
// address, not one budget for everyone (design.md#admission): a burst from one address used to spend the
// hour for every genuine client. A pending client (never authorized) lives `pendingClientSeconds`,
// so one address keeps at most registrationsPerHour × (pending hours + 1) of them live. A client
// already registered is answered without spending anything, so one that completed an
// authorization is never refused here. Past the budget: 429 `rate_limited`, nothing written.
import type { OAuthServerSettings } from '../../auth/oauth/oauth-settings.ts';
import { LorebookError } from '../../domain/errors.ts';
import type { UpdateAction } from '../../store/actions.ts';
import type { ItemKey } from '../../store/keys.ts';
import { countCallAction, rateWindowKey } from '../../store/rate-window.ts';
import { epochSeconds } from '../../store/store.ts';

/** The window's subject: the address registering. */
const subjectOf = (address: string): string => `oauth-registration:ip:${address}`;
const WINDOW_MS = 60 * 60 * 1000;
/** The window item outlives its hour a little, so a late registration never finds it deleted early. */
const WINDOW_TTL_GRACE_SECONDS = 120;

export interface RegistrationWindow {
  key: ItemKey;
  /** Counts this registration; its condition is the budget (a full window cancels the transaction). */
  count: UpdateAction;
  limit: number;
  /** Milliseconds until the next window. */
  resetMs: number;
}

export function registrationWindow(settings: OAuthServerSettings, nowMs: number, address: string): RegistrationWindow {
  const subject = subjectOf(address);
  const windowStartMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const limit = settings.registrationsPerHour;
  const expiresAt = epochSeconds(windowStartMs + WINDOW_MS) + WINDOW_TTL_GRACE_SECONDS;
  return {
    key: rateWindowKey(subject, windowStartMs),
    count: countCallAction({ subject, windowStartMs, limit, expiresAt }),
    limit,
    resetMs: windowStartMs + WINDOW_MS - nowMs,
  };
}

export const isWindowFull = (window: RegistrationWindow, stored: Record<string, unknown> | undefined): boolean =>
  Number(stored?.count ?? 0) >= window.limit;

export function registrationBudgetSpent(window: RegistrationWindow): LorebookError {
  return new LorebookError(
    'rate_limited',
    `lorebook takes at most ${window.limit} new app registrations an hour from one address, and this address has used this hour's. Nothing was registered. Register again after retry_after_ms (${window.resetMs} ms); an app registered before keeps working.`,
    { retryAfterMs: window.resetMs, details: { reason: 'registration_budget', limit: window.limit, window_seconds: WINDOW_MS / 1000 } },
  );
}
