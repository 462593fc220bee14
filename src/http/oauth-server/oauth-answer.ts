// How the OAuth endpoints answer: RFC 6749 §5.1/§5.2 JSON, never cached (§5.1: `Cache-Control:
// no-store`), with `WWW-Authenticate` on 401 invalid_client (§5.2). A LorebookError (the store
// is unavailable, …) still goes to the one renderer as problem+json: OAuth clients treat any
// non-OAuth error body as a failed request, which is what it is.
import type { Context } from 'hono';
import { isOAuthError, OAuthError } from '../../domain/oauth-error.ts';
import { mediaType, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';

export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** An OAuth request is a few hundred bytes; anything near this is not one. */
const MAX_OAUTH_BODY_BYTES = 16 * 1024;

export function oauthJson(c: Context<HttpEnv>, body: unknown, status: 200 | 201 = 200): Response {
  return c.body(JSON.stringify(body), status, { ...NO_STORE, 'Content-Type': 'application/json' });
}

export function oauthRefusal(c: Context<HttpEnv>, error: OAuthError): Response {
  const headers: Record<string, string> = { ...NO_STORE, 'Content-Type': 'application/json' };
  if (error.status === 401) headers['WWW-Authenticate'] = 'Basic realm="lorebook", error="invalid_client"';
  return c.body(JSON.stringify(error.toBody()), error.status, headers);
}

/** Runs an OAuth handler, turning its OAuthError into the RFC 6749 answer. */
export async function answeringOAuth(c: Context<HttpEnv>, handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (isOAuthError(error)) return oauthRefusal(c, error);
    throw error;
  }
}

/** The form body of a token or revocation request (RFC 6749 §4.1.3: application/x-www-form-urlencoded). */
export async function readForm(c: Context<HttpEnv>): Promise<URLSearchParams> {
  if (mediaType(c.req.header('content-type')) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(await readBodyText(c.req.raw, MAX_OAUTH_BODY_BYTES));
}

/** A JSON body (registration), capped like a form. */
export async function readJson(c: Context<HttpEnv>): Promise<unknown> {
  const text = await readBodyText(c.req.raw, MAX_OAUTH_BODY_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The registration body is not JSON: send a JSON object with redirect_uris.');
  }
}
