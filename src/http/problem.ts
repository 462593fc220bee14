// The one place errors become HTTP answers (docs/design.md#errors): a LorebookError is rendered as
// application/problem+json (RFC 9457) on /v1 and elsewhere, and as a JSON-RPC error on /mcp
// (before the MCP transport runs: a batch, a missing token, the rate limit), and as an XRPC error
// (`{error, message}`) on /xrpc/*, the feed generator's. Anything else is a bug: logged, and
// answered 500 without its message.
import type { Context } from 'hono';
import { insufficientScope, wwwAuthenticate } from '../auth/access-rule.ts';
import { type ErrorBody, type ErrorCode, isLorebookError, LorebookError } from '../domain/errors.ts';
import { escapeForLog } from '../domain/text-controls.ts';
import type { HttpEnv } from './http-env.ts';
import { XRPC_PATH_PREFIX, xrpcFailure } from './pages/xrpc-error.ts';

const TITLES: Record<ErrorCode, string> = {
  validation_failed: 'The request is not valid',
  payload_too_large: 'The request is too large',
  unauthenticated: 'A valid token is needed',
  forbidden: 'Not allowed',
  account_suspended: 'The account is suspended',
  not_found: 'Not found',
  conflict: 'A competing change won',
  revision_conflict: 'The story has moved on',
  slug_taken: 'The slug belongs to another author',
  duplicate_content: "The story repeats another account's recent story",
  idempotency_key_reused: 'The Idempotency-Key was used for another request',
  rate_limited: 'Too many requests',
  store_unavailable: 'The store is unavailable',
  upstream_failed: 'An upstream service failed',
  secret_detected: 'The request holds a secret',
};

/** RFC 9457 `type`: a stable URI per code (a URN: not meant to be dereferenced). */
export const problemType = (code: string): string => `urn:lorebook:problem:${code}`;

export interface Problem extends ErrorBody {
  type: string;
  title: string;
  status: number;
  detail: string;
}

export function problemOf(error: LorebookError): Problem {
  const body = error.toBody();
  return { type: problemType(body.code), title: TITLES[body.code], status: error.httpStatus, detail: body.message, ...body };
}

/** Headers a refusal carries: WWW-Authenticate on 401, Retry-After when a retry can succeed later. */
export function refusalHeaders(error: LorebookError, baseUrl: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.code === 'unauthenticated') {
    // RFC 6750 §3.1: `invalid_token` when a token was sent but is not live; no error code when none was sent.
    const missing = error.details?.reason === 'missing';
    headers['WWW-Authenticate'] = wwwAuthenticate(baseUrl, missing ? undefined : 'invalid_token');
  }
  const scope = error.details?.scope;
  if (error.code === 'forbidden' && error.details?.reason === 'insufficient_scope' && typeof scope === 'string') {
    headers['WWW-Authenticate'] = insufficientScope(baseUrl, scope.split(' '));
  }
  const retryAfterMs = error.retryAfterMs ?? (error.httpStatus === 503 || error.httpStatus === 502 ? 1000 : undefined);
  if (retryAfterMs !== undefined && error.retryable) headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return headers;
}

export const JSON_RPC_SERVER_ERROR = -32000;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INVALID_PARAMS = -32602;

export function jsonRpcErrorBody(id: unknown, code: number, message: string, data?: ErrorBody): Record<string, unknown> {
  return { jsonrpc: '2.0', id: isJsonRpcId(id) ? id : null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

const isJsonRpcId = (id: unknown): id is string | number => typeof id === 'string' || typeof id === 'number';

export const MCP_PATH = '/mcp';

export function renderError(err: Error, c: Context<HttpEnv>, baseUrl: string): Response {
  if (!isLorebookError(err)) {
    // One escaped line: the path is the caller's, and the stack spans lines of its own.
    console.error(escapeForLog(`lorebook: unexpected error on ${c.req.method} ${c.req.path}: ${err.stack ?? String(err)}`));
    if (c.req.path.startsWith(XRPC_PATH_PREFIX)) return xrpcFailure(c, err);
    return c.body(
      JSON.stringify({
        type: problemType('internal'),
        title: 'Internal error',
        status: 500,
        detail: 'Something went wrong on our side. Retry later with the same Idempotency-Key; a write is applied at most once.',
        code: 'internal',
        retryable: true,
      }),
      500,
      { 'Content-Type': 'application/problem+json' },
    );
  }
  if (c.req.path.startsWith(XRPC_PATH_PREFIX)) return xrpcFailure(c, err);
  const headers = refusalHeaders(err, baseUrl);
  if (c.req.path === MCP_PATH) {
    const body = jsonRpcErrorBody(c.get('rpcId'), JSON_RPC_SERVER_ERROR, err.message, err.toBody());
    return c.body(JSON.stringify(body), err.httpStatus as 400, { ...headers, 'Content-Type': 'application/json' });
  }
  return c.body(JSON.stringify(problemOf(err)), err.httpStatus as 400, { ...headers, 'Content-Type': 'application/problem+json' });
}

/** Unknown paths: the same problem shape as every other refusal. */
export function noSuchEndpoint(method: string, path: string): LorebookError {
  return new LorebookError('not_found', `There is no ${method} ${path}. GET /v1/openapi.json lists the API; MCP is POST /mcp.`, {
    details: { method, path },
  });
}
