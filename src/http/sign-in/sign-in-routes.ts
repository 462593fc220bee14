// Sign in with Bluesky (docs/design.md#surfaces): GET /auth/login?handle= sends the browser to the person's
// own PDS; GET /auth/callback comes back with a code, which the atproto OAuth client exchanges
// for the person's DID; lorebook then records the account (DID) and its current handle, starts a
// web session (an HttpOnly cookie) and redirects to `return_to`. POST /auth/logout ends it.
// Every answer is `Cache-Control: no-store`. Refusals are pages for browsers and problem+json
// for everything else.
import type { NodeOAuthClient } from '@atproto/oauth-client-node';
import type { Context, Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { AppContext } from '../../app/context/app-context.ts';
import { readSignInState, SIGN_IN_STATE_SECONDS } from '../../app/sign-in/bluesky-oauth-stores.ts';
import { recordBlueskySignIn } from '../../app/sign-in/bluesky-sign-in.ts';
import { CALLBACK_PATH, CLIENT_METADATA_PATH, JWKS_PATH } from '../../app/sign-in/sign-in-paths.ts';
import { endWebSession, readWebSession, startWebSession, WEB_SESSION_COOKIE, WEB_SESSION_SECONDS } from '../../app/sign-in/web-session.ts';
import { bindingHash, nonceFor, SIGN_IN_BINDING_COOKIE, SIGN_IN_BINDING_COOKIE_PATH, sameBrowser } from '../../auth/sign-in-binding.ts';
import type { SignInConfig } from '../../auth/sign-in-config.ts';
import { isLorebookError, LorebookError, validationFailed } from '../../domain/errors.ts';
import { consoleLog } from '../../log-sink.ts';
import { type AdmissionDeps, admit } from '../admission.ts';
import type { HttpEnv } from '../http-env.ts';
import { refusalHeaders } from '../problem.ts';
import { refusalPage, signInPage } from './auth-pages.ts';
import { DEFAULT_RETURN_TO, safeReturnTo } from './return-to.ts';

export const LOGIN_PATH = '/auth/login';
export const LOGOUT_PATH = '/auth/logout';

export interface SignInDeps {
  ctx: AppContext;
  /** The public base URL (no trailing slash). */
  baseUrl: string;
  config: SignInConfig;
  /** One line per sign-in and per refusal worth an operator's eye. */
  log?: (line: string) => void;
  /** The anonymous (per IP) rate limit in front of the routes that write for a stranger. */
  admission?: AdmissionDeps;
}

/** What lorebook carries through the PDS round trip in the client's app state. */
interface AppState {
  return_to: string;
  /** The sha256 of the browser-binding nonce (sign-in-binding.ts); the cookie holds the nonce. */
  browser?: string;
}

const NO_STORE = { 'Cache-Control': 'no-store' };
/** A handle, or a DID (people may type either; the library resolves both). */
const IDENTIFIER = /^(did:[a-z]+:[A-Za-z0-9._:%-]+|[a-z0-9](?:[a-z0-9-]{0,62})?(?:\.[a-z0-9](?:[a-z0-9-]{0,62})?)+)$/;

export function mountSignIn(app: Hono<HttpEnv>, deps: SignInDeps): void {
  const log = deps.log ?? consoleLog;
  let client: Promise<NodeOAuthClient> | undefined;
  // Built on first use: a production key is imported asynchronously, and the atproto library with
  // it (a chunk of its own in the Lambda bundle, loaded only where someone signs in).
  const oauthClient = (): Promise<NodeOAuthClient> =>
    (client ??= import('../../app/sign-in/bluesky-oauth-client.ts').then((module) =>
      module.createBlueskyOAuthClient(deps.ctx, deps.baseUrl, deps.config),
    ));
  const secure = new URL(deps.baseUrl).protocol === 'https:';

  app.get(LOGIN_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    return refusing(c, deps.baseUrl, async () => {
      // Every sign-in start stores a pending state: counted against the caller's IP.
      if (deps.admission !== undefined) await admit(c, deps.admission, true);
      const returnTo = safeReturnTo(c.req.query('return_to'), deps.baseUrl);
      const raw = c.req.query('handle');
      if (raw === undefined || raw.trim() === '') return c.html(signInPage(returnTo), 200, NO_STORE);
      // Handles are case-insensitive; a DID is kept as typed (did:web's port is `%3A`).
      const typed = raw.trim().replace(/^@/, '');
      const handle = typed.startsWith('did:') ? typed : typed.toLowerCase();
      if (!IDENTIFIER.test(handle)) {
        throw validationFailed(`"${raw}" is not a Bluesky handle. Type your handle like alice.bsky.social (or your DID).`, {
          handle: 'a handle like alice.bsky.social',
        });
      }
      let url: URL;
      const nonce = nonceFor(c.req.header('cookie'));
      try {
        const appState: AppState = { return_to: returnTo, browser: bindingHash(nonce) };
        url = await (await oauthClient()).authorize(handle, { state: JSON.stringify(appState) });
      } catch (error) {
        if (isLorebookError(error)) throw error;
        log(`lorebook: sign-in refused for "${handle}": ${String((error as Error).message)}`);
        // The handle (or DID) did not resolve: the person's to fix. Anything after that (their
        // PDS's metadata, its pushed authorization request) is their server's trouble.
        const { OAuthResolverError } = await import('@atproto/oauth-client-node');
        if (error instanceof OAuthResolverError && error.message.startsWith('Failed to resolve identity')) {
          throw new LorebookError(
            'not_found',
            `No Bluesky account could be found for "${handle}". Check the spelling of your handle (e.g. alice.bsky.social) and try again.`,
            {
              details: { handle, reason: 'unknown_handle' },
              cause: error,
            },
          );
        }
        throw new LorebookError(
          'upstream_failed',
          `The Bluesky server of "${handle}" did not answer the sign-in request. Try again in a moment.`,
          {
            details: { handle },
            cause: error,
          },
        );
      }
      setCookie(c, SIGN_IN_BINDING_COOKIE, nonce, {
        path: SIGN_IN_BINDING_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Lax',
        secure,
        maxAge: SIGN_IN_STATE_SECONDS,
      });
      return c.redirect(url.href, 302);
    });
  });

  app.get(CALLBACK_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    return refusing(c, deps.baseUrl, async () => {
      const params = new URL(c.req.url).searchParams;
      await refuseOtherBrowser(c, params);
      const oauth = await oauthClient();
      let did: string;
      let appState: AppState;
      try {
        const { session, state } = await oauth.callback(params);
        did = session.did;
        appState = parseAppState(state);
        // lorebook needs the DID only: give the PDS session back at once (best effort; the
        // stored copy goes either way).
        await session.signOut().catch((error: unknown) => log(`lorebook: could not revoke the PDS session of ${did}: ${String(error)}`));
      } catch (error) {
        return await refusedCallback(c, error, params);
      }
      const handle = await currentHandle(oauth, did);
      const { account, created } = await recordBlueskySignIn(deps.ctx, { did, handle });
      const started = await startWebSession(deps.ctx, account.id);
      setCookie(c, WEB_SESSION_COOKIE, started.cookieValue, {
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        secure,
        maxAge: WEB_SESSION_SECONDS,
      });
      log(`lorebook: sign-in ${created ? 'new' : 'returning'} account ${did} as @${handle}`);
      return c.redirect(appState.return_to, 303);
    });
  });

  app.post(LOGOUT_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    return refusing(c, deps.baseUrl, async () => {
      const returnTo = safeReturnTo(c.req.query('return_to') ?? '/', deps.baseUrl);
      const { ended } = await endWebSession(deps.ctx, c.req.header('cookie'));
      deleteCookie(c, WEB_SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure });
      if (wantsHtml(c)) return c.redirect(returnTo, 303);
      return c.json({ signed_out: true, ended }, 200);
    });
  });

  if (deps.config.mode === 'production') {
    app.get(CLIENT_METADATA_PATH, async (c) =>
      c.json((await oauthClient()).clientMetadata, 200, { 'Cache-Control': 'public, max-age=600' }),
    );
    app.get(JWKS_PATH, async (c) => c.json((await oauthClient()).jwks, 200, { 'Cache-Control': 'public, max-age=600' }));
  }

  /**
   * Login CSRF: a pending sign-in goes on only in the browser that started it. Checked before the
   * state is consumed, so a refused callback writes nothing and the link stays usable by its
   * owner. A used or unknown state goes on to the client, which refuses it without a write.
   */
  async function refuseOtherBrowser(c: Context<HttpEnv>, params: URLSearchParams): Promise<void> {
    const state = params.get('state') ?? '';
    const stored = state === '' ? undefined : await readSignInState(deps.ctx, state);
    if (stored?.state_data === undefined || stored.used_at !== undefined) return;
    if (sameBrowser(parseAppState(stored.app_state ?? null).browser, c.req.header('cookie'))) return;
    log('lorebook: sign-in callback refused: it was opened in another browser than the one that started the sign-in');
    throw new LorebookError(
      'forbidden',
      'This sign-in link was started in another browser. Nothing was changed: start signing in here, from the sign-in page.',
      {
        details: { reason: 'other_browser' },
      },
    );
  }

  /** The callback could not complete: say why, write nothing more. */
  async function refusedCallback(c: Context<HttpEnv>, error: unknown, params: URLSearchParams): Promise<Response> {
    const state = params.get('state') ?? '';
    // Our own store's trouble (store_unavailable) is told as itself, wrapped by the client or not.
    if (isLorebookError(error)) throw error;
    const { OAuthCallbackError } = await import('@atproto/oauth-client-node');
    if (error instanceof OAuthCallbackError && isLorebookError(error.cause)) throw error.cause;
    const upstream = new LorebookError('upstream_failed', 'Your Bluesky server did not confirm the sign-in. Sign in again in a moment.', {
      cause: error,
    });
    if (!(error instanceof OAuthCallbackError)) throw upstream;
    const denied = params.get('error');
    if (denied !== null) {
      throw new LorebookError(
        'forbidden',
        `Your Bluesky server did not sign you in (${denied}${params.get('error_description') ? `: ${params.get('error_description')}` : ''}). Nothing was changed; sign in again when you are ready.`,
        {
          details: { reason: denied },
        },
      );
    }
    // The client hands back our app state only when this request consumed the sign-in: then the
    // exchange itself failed (the code is spent, the person signs in again).
    if (error.state !== undefined) throw upstream;
    const stored = state === '' ? undefined : await readSignInState(deps.ctx, state);
    if (stored?.used_at !== undefined) {
      // A replay (a double click, a reload, a history entry). The browser that signed in with
      // this link is sent on as the first time; anyone else is told, and nothing is written.
      const returnTo = parseAppState(stored.app_state ?? null).return_to;
      if ((await readWebSession(deps.ctx, c.req.header('cookie'))) !== undefined) return c.redirect(returnTo, 303);
      throw new LorebookError('conflict', 'This sign-in link was already used. If you just signed in, continue; otherwise sign in again.', {
        retryable: false,
        details: { reason: 'already_used', return_to: returnTo },
      });
    }
    throw new LorebookError('not_found', 'This sign-in link is unknown or has expired (they last 10 minutes). Sign in again.', {
      details: { reason: 'unknown_state' },
    });
  }
}

/** The DID's handle as it resolves now (both ways); the DID itself when it has no valid handle. */
async function currentHandle(oauth: NodeOAuthClient, did: string): Promise<string> {
  try {
    const identity = await oauth.identityResolver.resolve(did);
    return identity.handle === 'handle.invalid' ? did : identity.handle;
  } catch (error) {
    throw new LorebookError('upstream_failed', 'Your Bluesky identity could not be looked up just now. Sign in again in a moment.', {
      cause: error,
    });
  }
}

function parseAppState(raw: string | null): AppState {
  if (raw === null) return { return_to: DEFAULT_RETURN_TO };
  const parsed = JSON.parse(raw) as Partial<AppState>;
  return {
    return_to: typeof parsed.return_to === 'string' ? parsed.return_to : DEFAULT_RETURN_TO,
    ...(typeof parsed.browser === 'string' ? { browser: parsed.browser } : {}),
  };
}

function wantsHtml(c: Context<HttpEnv>): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

/** Runs a route; a refusal becomes a page for a browser, or goes to onError (problem+json). */
async function refusing(c: Context<HttpEnv>, baseUrl: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!isLorebookError(error) || !wantsHtml(c)) throw error;
    const returnTo = typeof error.details?.return_to === 'string' ? error.details.return_to : undefined;
    const next = returnTo !== undefined ? { href: returnTo, label: 'Continue' } : { href: LOGIN_PATH, label: 'Sign in again' };
    return c.html(refusalPage(error, next), error.httpStatus as 400, { ...refusalHeaders(error, baseUrl), ...NO_STORE });
  }
}
