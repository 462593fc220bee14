// Rate limits (docs/design.md#surfaces): a fixed one-minute window per subject, counted in one
// DynamoDB item every server instance shares. Keyed by account — never by token, which a refresh
// or a second token would reset — and by IP address for calls without a token.

import { LorebookError } from '../../domain/errors.ts';
import { countCall } from '../../store/rate-window.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext } from './app-context.ts';

export const RATE_WINDOW_MS = 60_000;
/** The window item outlives its window a little, so a late call never finds it deleted early. */
const WINDOW_TTL_GRACE_SECONDS = 120;

export interface RateDecision {
  allowed: boolean;
  /** Calls per window for this subject. */
  limit: number;
  /** Calls left in this window after this one. */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** 0 when allowed; otherwise milliseconds until the next window, when a call will be counted again. */
  retryAfterMs: number;
}

/**
 * The subject of an authenticated caller: the account, whatever token or client it used, so all
 * of an account's tokens and clients share one budget.
 */
export const accountRateSubject = (account: string): string => `account:${account}`;
/** The subject of a call without a token. */
export const ipRateSubject = (address: string): string => `ip:${address}`;

/** Windows this process has seen full, so their later calls are refused without a round trip; bounded, oldest forgotten first. */
const MAX_FULL_WINDOWS = 10_000;
const fullWindows = new Set<string>();

function rememberFull(window: string): void {
  fullWindows.add(window);
  if (fullWindows.size > MAX_FULL_WINDOWS) fullWindows.delete(fullWindows.values().next().value as string);
}

interface Window {
  subject: string;
  limit: number;
  windowStartMs: number;
  windowEndMs: number;
  resetMs: number;
  /** The window as fullWindows knows it (the table too: test suites share a process). */
  id: string;
}

/** The limit of a subject: an account's, or an address's without a token, unless the budget names its own (outbound-budget.ts). */
function windowOf(ctx: AppContext, subject: string, now: number, ownLimit?: number): Window {
  const limit = ownLimit ?? (subject.startsWith('ip:') ? ctx.config.anonymousRateLimitPerMinute : ctx.config.rateLimitPerMinute);
  const windowStartMs = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
  const windowEndMs = windowStartMs + RATE_WINDOW_MS;
  return {
    subject,
    limit,
    windowStartMs,
    windowEndMs,
    resetMs: windowEndMs - now,
    id: `${ctx.store.tableName}|${subject}|${windowStartMs}|${limit}`,
  };
}

const refusal = (window: Window): RateDecision => ({
  allowed: false,
  limit: window.limit,
  remaining: 0,
  resetMs: window.resetMs,
  retryAfterMs: window.resetMs,
});

/**
 * The refusal of a call whose window this process has already seen full, known without a round
 * trip: a window's count only grows, so the store would refuse it too. Undefined otherwise.
 */
export function knownRefusal(ctx: AppContext, subject: string, now: number = ctx.store.now()): RateDecision | undefined {
  const window = windowOf(ctx, subject, now);
  return fullWindows.has(window.id) ? refusal(window) : undefined;
}

/**
 * Counts one call, or refuses it without writing anything when the window is full. Once one
 * refusal was seen here, every later call in that window is refused here without asking the
 * store (a flood past the limit costs no round trips).
 */
export async function consumeRateLimit(
  ctx: AppContext,
  subject: string,
  now: number = ctx.store.now(),
  ownLimit?: number,
): Promise<RateDecision> {
  const window = windowOf(ctx, subject, now, ownLimit);
  if (fullWindows.has(window.id)) return refusal(window);
  const counted = await countCall(ctx.store, {
    subject,
    windowStartMs: window.windowStartMs,
    limit: window.limit,
    expiresAt: epochSeconds(window.windowEndMs) + WINDOW_TTL_GRACE_SECONDS,
  });
  if (!counted.allowed) {
    rememberFull(window.id);
    return refusal(window);
  }
  return {
    allowed: true,
    limit: window.limit,
    remaining: Math.max(0, window.limit - counted.count),
    resetMs: window.resetMs,
    retryAfterMs: 0,
  };
}

/** The refusal for a decision that is not allowed: 429 `rate_limited` with retry_after_ms. */
export function rateLimited(decision: RateDecision): LorebookError {
  return new LorebookError(
    'rate_limited',
    `Too many calls: the limit is ${decision.limit} per minute. Nothing was done. Wait retry_after_ms (${decision.retryAfterMs} ms), then send the same call again.`,
    {
      retryAfterMs: decision.retryAfterMs,
      details: { limit: decision.limit, window_seconds: RATE_WINDOW_MS / 1000 },
    },
  );
}

/**
 * The standard headers (IETF draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy/RateLimit,
 * plus the widely read RateLimit-Limit/-Remaining/-Reset), seconds rounded up.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const resetSeconds = String(Math.ceil(decision.resetMs / 1000));
  const windowSeconds = RATE_WINDOW_MS / 1000;
  return {
    'RateLimit-Policy': `"default";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"default";r=${decision.remaining};t=${resetSeconds}`,
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': resetSeconds,
  };
}
