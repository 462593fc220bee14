// The device flow over HTTP (RFC 8628): POST /v1/auth/device/start and /v1/auth/device/poll for
// scripts (OAuth's own error format: `{"error": "authorization_pending"}` with 400, because device
// clients parse `error`), and the /device pages where a signed-in person approves the code.
// Store trouble and other failures stay problem+json like everywhere else.
import type { Context, Hono } from 'hono';
import { handlesFor } from '../../app/account/accounts.ts';
import type { AppContext } from '../../app/context/app-context.ts';
import { readWebSession, type WebSession } from '../../app/sign-in/web-session.ts';
import { normalizeUserCode } from '../../auth/device-codes.ts';
import { isLorebookError, validationFailed } from '../../domain/errors.ts';
import { type AdmissionDeps, admit } from '../admission.ts';
import { mediaType, opensJsonObject, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';

/**
 * The device flow's use cases, loaded on first use, not at a cold start (what the http function
 * loads at a cold start is bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
 */
const deviceFlow = () => import('../../app/oauth-server/device-flow.ts');

import { refusalPage } from '../sign-in/auth-pages.ts';
import { confirmPage, decidedPage, enterCodePage } from './device-pages.ts';

export const DEVICE_START_PATH = '/v1/auth/device/start';
export const DEVICE_POLL_PATH = '/v1/auth/device/poll';
export const DEVICE_PAGE_PATH = '/device';
const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const DEFAULT_CLIENT = 'device-flow';
const CLIENT_SHAPE = /^[\x20-\x7e]{1,100}$/;
const MAX_FORM_BYTES = 4096;
/** The op_id alphabet, at least 16 characters: the key is the secret a replayed device code is derived from. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{16,128}$/;
const NO_STORE = { 'Cache-Control': 'no-store' };

export interface DeviceDeps {
  ctx: AppContext;
  baseUrl: string;
  /** The anonymous (per IP) rate limit in front of start and poll. */
  admission?: AdmissionDeps;
}

/** RFC 6749 §5.2 / RFC 8628 §3.5 error answer. */
const oauthError = (c: Context<HttpEnv>, error: string, description: string) =>
  c.json({ error, error_description: description }, 400, NO_STORE);

/**
 * Form-encoded (what RFC 8628 specifies) or JSON, a few KiB at most; a body that opens a JSON
 * object is JSON whatever its label (opensJsonObject).
 */
async function readParams(c: Context<HttpEnv>): Promise<Record<string, string> | undefined> {
  const text = await readBodyText(c.req.raw, MAX_FORM_BYTES);
  if (mediaType(c.req.header('content-type')) === 'application/json' || opensJsonObject(text)) {
    try {
      const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export function mountDeviceFlow(app: Hono<HttpEnv>, deps: DeviceDeps): void {
  app.post(DEVICE_START_PATH, async (c) => {
    if (deps.admission !== undefined) await admit(c, deps.admission, true);
    const params = await readParams(c);
    if (params === undefined)
      return oauthError(c, 'invalid_request', 'Send client_id as application/x-www-form-urlencoded or a JSON object.');
    const client = params.client_id ?? DEFAULT_CLIENT;
    if (!CLIENT_SHAPE.test(client))
      return oauthError(c, 'invalid_request', 'client_id names your script: 1–100 printable ASCII characters, e.g. "my-agent-skill".');
    const idempotencyKey = c.req.header('idempotency-key');
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw validationFailed('The Idempotency-Key cannot key a device request.', {
        'Idempotency-Key':
          'Use 16 to 128 random characters from A-Z, a-z, 0-9, ".", "_", ":" and "-" (a UUID works): the device code is derived from it.',
      });
    }
    const { replayed, ...started } = await (await deviceFlow()).startDeviceAuthorization(deps.ctx, client, idempotencyKey);
    const verification = `${deps.baseUrl}${DEVICE_PAGE_PATH}`;
    return c.json(
      {
        ...started,
        verification_uri: verification,
        verification_uri_complete: `${verification}?user_code=${started.user_code}`,
        ...(replayed ? { replayed } : {}),
      },
      200,
      replayed ? { ...NO_STORE, 'Idempotent-Replayed': 'true' } : NO_STORE,
    );
  });

  app.post(DEVICE_POLL_PATH, async (c) => {
    // slow_down paces one device code; this bounds a caller polling many.
    if (deps.admission !== undefined) await admit(c, deps.admission, true);
    const params = await readParams(c);
    if (params?.device_code === undefined) return oauthError(c, 'invalid_request', 'Send the device_code from /v1/auth/device/start.');
    if (params.grant_type !== undefined && params.grant_type !== DEVICE_GRANT_TYPE) {
      return oauthError(c, 'unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE} (or left out).`);
    }
    const result = await (await deviceFlow()).pollDeviceAuthorization(deps.ctx, {
      deviceCode: params.device_code,
      ...(params.client_id === undefined ? {} : { client: params.client_id }),
    });
    if (result.kind === 'error') return oauthError(c, result.error, result.description);
    const handle = (await handlesFor(deps.ctx, [result.account])).get(result.account) ?? result.account;
    return c.json(
      {
        access_token: result.access_token,
        // The same token under the name worklore's skill polls for.
        token: result.access_token,
        token_type: 'Bearer',
        expires_in: result.expires_in,
        token_id: result.token_id,
        account: result.account,
        handle,
      },
      200,
      NO_STORE,
    );
  });

  app.get(DEVICE_PAGE_PATH, async (c) => {
    const session = await readWebSession(deps.ctx, c.req.header('cookie'));
    const typed = c.req.query('user_code');
    if (session === undefined)
      return toSignIn(c, typed === undefined ? DEVICE_PAGE_PATH : `${DEVICE_PAGE_PATH}?user_code=${encodeURIComponent(typed)}`, 302);
    if (typed === undefined || typed.trim() === '') return c.html(enterCodePage(session.handle), 200, NO_STORE);
    const userCode = normalizeUserCode(typed);
    const device = userCode === undefined ? undefined : await (await deviceFlow()).findDeviceRequest(deps.ctx, userCode);
    if (device === undefined || device.status !== 'pending') {
      return c.html(
        enterCodePage(
          session.handle,
          `No request waits for the code “${typed}”: check it, or start again on the device (codes last 10 minutes and work once).`,
        ),
        404,
        NO_STORE,
      );
    }
    return c.html(confirmPage(session.handle, device), 200, NO_STORE);
  });

  app.post(DEVICE_PAGE_PATH, async (c) => {
    const session = await readWebSession(deps.ctx, c.req.header('cookie'));
    const params = (await readParams(c)) ?? {};
    if (session === undefined) return toSignIn(c, `${DEVICE_PAGE_PATH}?user_code=${encodeURIComponent(params.user_code ?? '')}`, 303);
    const userCode = normalizeUserCode(params.user_code ?? '');
    const decision = params.decision === 'approve' ? 'approved' : params.decision === 'deny' ? 'denied' : undefined;
    if (userCode === undefined || decision === undefined) {
      return c.html(enterCodePage(session.handle, 'Enter the code your device shows, then approve or deny.'), 422, NO_STORE);
    }
    return decide(c, deps, session, userCode, decision);
  });
}

async function decide(
  c: Context<HttpEnv>,
  deps: DeviceDeps,
  session: WebSession,
  userCode: string,
  decision: 'approved' | 'denied',
): Promise<Response> {
  try {
    const device = await (await deviceFlow()).decideDeviceAuthorization(deps.ctx, { account: session.accountId, userCode, decision });
    return c.html(decidedPage(session.handle, device), 200, NO_STORE);
  } catch (error) {
    if (!isLorebookError(error)) throw error;
    return c.html(refusalPage(error, { href: DEVICE_PAGE_PATH, label: 'Enter another code' }), error.httpStatus as 400, NO_STORE);
  }
}

function toSignIn(c: Context<HttpEnv>, returnTo: string, status: 302 | 303): Response {
  return c.redirect(`/auth/login?return_to=${encodeURIComponent(returnTo)}`, status);
}
