// @atproto/api errors sorted into the AnnounceFailure kinds the announcer decides on. What a PDS
// does, seen against the real one: a stopped PDS is an XRPCError with status 1 ("fetch failed",
// cause ECONNREFUSED); an aborted call is status 1 with a TimeoutError cause; a 429 carries
// retry-after and ratelimit-reset headers; a record already at the key is a 500.
import { XRPCError } from '@atproto/api';
import { AnnounceFailure } from '../../src/outbox/announce/port.ts';

export type Step = 'sign-in' | 'look-up' | 'upload' | 'post' | 'delete' | 'publication' | 'document';

/** Errors that mean the session, not the request, was refused: sign in again and retry. */
const SESSION_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthRequired', 'AuthenticationRequired', 'AuthMissing']);

/** The session was refused after sign-in (an expired or revoked token the session could not refresh). */
export function isSessionRefused(error: unknown): boolean {
  return error instanceof XRPCError && (error.status === 401 || SESSION_ERRORS.has(error.error));
}

export function toAnnounceFailure(error: unknown, step: Step, where: string, now: () => number = Date.now): AnnounceFailure {
  if (error instanceof AnnounceFailure) return error;
  const status: number | undefined = error instanceof XRPCError ? error.status : undefined;
  const detail = describe(error);
  // Status 1 is no HTTP answer at all; 2 is an answer that was not a valid XRPC response.
  if (status === undefined || status < 100) {
    if (status === 2) return new AnnounceFailure('server', `${step}: ${where} gave an invalid answer (${detail})`, { cause: error });
    if (causes(error).some((cause) => cause.name === 'TimeoutError' || cause.name === 'AbortError')) {
      return new AnnounceFailure('timeout', `${step}: ${where} did not answer in time (${detail})`, { cause: error });
    }
    return new AnnounceFailure('unreachable', `${step}: ${where} could not be reached (${detail})`, { cause: error });
  }
  if (status === 429) {
    const retryAfterMs = retryAfter(error instanceof XRPCError ? error.headers : undefined, now);
    const wait = retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
    return new AnnounceFailure('rate_limited', `${step}: ${where} is rate limiting us (${detail})${wait}`, {
      cause: error,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (status >= 500) return new AnnounceFailure('server', `${step}: ${where} failed with ${status} (${detail})`, { cause: error });
  if (step !== 'sign-in' && isSessionRefused(error)) {
    return new AnnounceFailure('server', `${step}: ${where} refused the session (${status} ${detail}); the next attempt signs in again`, {
      cause: error,
    });
  }
  if (step === 'sign-in' && (status === 401 || status === 400 || status === 403)) {
    return new AnnounceFailure(
      'credentials',
      `sign-in: ${where} refused the app password (${status} ${detail}). Check BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD; nothing is posted until lorebook restarts with working credentials.`,
      { cause: error },
    );
  }
  return new AnnounceFailure('rejected', `${step}: ${where} refused the request (${status} ${detail})`, { cause: error });
}

/** retry-after (seconds or an HTTP date), else ratelimit-reset (epoch seconds), in ms from now. */
export function retryAfter(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  now: () => number = Date.now,
): number | undefined {
  const value = headers?.['retry-after'];
  if (value !== undefined && value.trim() !== '') {
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now());
  }
  const reset = Number(headers?.['ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now()) : undefined;
}

function causes(error: unknown): { name?: string; code?: string; message?: string }[] {
  const chain: { name?: string; code?: string; message?: string }[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    chain.push(current as { name?: string; code?: string });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function describe(error: unknown): string {
  const chain = causes(error);
  const named = chain.map((cause) => {
    const xrpc = (cause as { error?: unknown }).error;
    const label = typeof xrpc === 'string' && xrpc !== '' ? xrpc : (cause.code ?? cause.name);
    return cause.message !== undefined && cause.message !== '' ? `${label}: ${cause.message}` : String(label);
  });
  return [...new Set(named)].join(' <- ').slice(0, 300);
}
