// XRPC error answers for the feed generator: `{ error, message }` with the status atproto
// clients and Bluesky's AppView branch on, from lorebook's typed errors (design.md#errors). Every
// failure on an /xrpc route is answered this way (the app's error handler sends /xrpc/* here):
// an atproto client reads `error`, never a problem+json `code`.
import type { Context } from 'hono';
import { isLorebookError, type LorebookError } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';

export type XrpcStatus = 400 | 401 | 413 | 429 | 500 | 501 | 502 | 503;

export const XRPC_PATH_PREFIX = '/xrpc/';

export const xrpcError = (
  c: Context<HttpEnv>,
  status: XrpcStatus,
  error: string,
  message: string,
  headers?: Record<string, string>,
): Response => c.json({ error, message }, status, headers);

const retryAfter = (error: LorebookError): Record<string, string> => ({
  'Retry-After': String(Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000))),
});

/** The XRPC answer for a refusal a route can name, or undefined for the rest (see xrpcFailure). */
export function xrpcRefusal(c: Context<HttpEnv>, error: unknown): Response | undefined {
  if (!isLorebookError(error)) return undefined;
  switch (error.code) {
    case 'validation_failed':
    case 'idempotency_key_reused':
    case 'secret_detected':
      return xrpcError(c, 400, 'InvalidRequest', error.message);
    case 'payload_too_large':
      return xrpcError(c, 413, 'PayloadTooLarge', error.message);
    case 'unauthenticated':
      return xrpcError(c, 401, String(error.details?.reason ?? 'AuthenticationRequired'), error.message);
    case 'rate_limited':
      return xrpcError(c, 429, 'RateLimitExceeded', error.message, retryAfter(error));
    case 'upstream_failed':
      return xrpcError(c, 502, 'UpstreamFailure', error.message);
    default:
      return undefined;
  }
}

/**
 * Any failure on an /xrpc route as an XRPC error: the refusals above, an unknown method (501
 * MethodNotImplemented, as atproto servers answer), a store outage (503 NotEnoughResources, with
 * Retry-After), and anything else — a bug included — 500 InternalServerError without its detail.
 */
export function xrpcFailure(c: Context<HttpEnv>, error: unknown): Response {
  const refusal = xrpcRefusal(c, error);
  if (refusal !== undefined) return refusal;
  if (isLorebookError(error) && error.code === 'not_found') return xrpcError(c, 501, 'MethodNotImplemented', error.message);
  if (isLorebookError(error) && error.code === 'store_unavailable')
    return xrpcError(c, 503, 'NotEnoughResources', error.message, retryAfter(error));
  return xrpcError(c, 500, 'InternalServerError', 'Something went wrong on our side; retry later.');
}
