// XRPC error answers for the feed generator: `{ error, message }` with the status atproto
// clients and Bluesky's AppView branch on, from lorebook's typed errors (design §5). What has no
// XRPC meaning of its own (a store outage, a bug) is left to the app's problem+json handler.
import type { Context } from 'hono';
import { isLorebookError } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';

export type XrpcStatus = 400 | 401 | 413 | 429 | 502;

export const xrpcError = (
  c: Context<HttpEnv>,
  status: XrpcStatus,
  error: string,
  message: string,
  headers?: Record<string, string>,
): Response => c.json({ error, message }, status, headers);

/** The XRPC answer for a refusal, or undefined for errors the app's handler answers. */
export function xrpcRefusal(c: Context<HttpEnv>, error: unknown): Response | undefined {
  if (!isLorebookError(error)) return undefined;
  switch (error.code) {
    case 'validation_failed':
    case 'idempotency_key_reused':
      return xrpcError(c, 400, 'InvalidRequest', error.message);
    case 'payload_too_large':
      return xrpcError(c, 413, 'PayloadTooLarge', error.message);
    case 'unauthenticated':
      return xrpcError(c, 401, String(error.details?.reason ?? 'AuthenticationRequired'), error.message);
    case 'rate_limited':
      return xrpcError(c, 429, 'RateLimitExceeded', error.message, {
        'Retry-After': String(Math.ceil((error.retryAfterMs ?? 1000) / 1000)),
      });
    case 'upstream_failed':
      return xrpcError(c, 502, 'UpstreamFailure', error.message);
    default:
      return undefined;
  }
}
