// The global budget of new client registrations (anonymous writes any caller can make): at most
// `registrationsPerHour` per clock hour across all instances, counted in one shared rate window
// in the same transaction that creates the client. A pending client (never authorized) lives
// `pendingClientSeconds`, so at most registrationsPerHour × (pending hours + 1) of them are ever
// live, however many addresses register. Past the budget: 429 `rate_limited`, nothing written.
import type { OAuthServerSettings } from '../../auth/oauth/oauth-settings.ts';
import { LorebookError } from '../../domain/errors.ts';
import type { UpdateAction } from '../../store/actions.ts';
import type { ItemKey } from '../../store/keys.ts';
import { countCallAction, rateWindowKey } from '../../store/rate-window.ts';
import { epochSeconds } from '../../store/store.ts';

const SUBJECT = 'global:oauth-registration';
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

export function registrationWindow(settings: OAuthServerSettings, nowMs: number): RegistrationWindow {
  const windowStartMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const limit = settings.registrationsPerHour;
  const expiresAt = epochSeconds(windowStartMs + WINDOW_MS) + WINDOW_TTL_GRACE_SECONDS;
  return {
    key: rateWindowKey(SUBJECT, windowStartMs),
    count: countCallAction({ subject: SUBJECT, windowStartMs, limit, expiresAt }),
    limit,
    resetMs: windowStartMs + WINDOW_MS - nowMs,
  };
}

export const isWindowFull = (window: RegistrationWindow, stored: Record<string, unknown> | undefined): boolean =>
  Number(stored?.count ?? 0) >= window.limit;

export function registrationBudgetSpent(window: RegistrationWindow): LorebookError {
  return new LorebookError(
    'rate_limited',
    `lorebook takes at most ${window.limit} new app registrations an hour, and this hour's are taken. Nothing was registered. Register again after retry_after_ms (${window.resetMs} ms); an app registered before keeps working.`,
    { retryAfterMs: window.resetMs, details: { reason: 'registration_budget', limit: window.limit, window_seconds: WINDOW_MS / 1000 } },
  );
}
