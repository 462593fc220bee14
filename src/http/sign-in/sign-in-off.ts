// Where Sign in with Bluesky is not turned on (a public base URL without a production client, or
// a Lambda whose key secret still holds its placeholder), /auth/login still answers, and says so:
// /oauth/authorize, /account and /device send a person there, and a bare 404 "no such endpoint"
// would read as a broken link rather than as a server that does not offer browser sign-in.
import type { Hono } from 'hono';
import { LorebookError } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';
import { refusalHeaders } from '../problem.ts';
import { refusalPage } from './auth-pages.ts';
import { LOGIN_PATH } from './sign-in-routes.ts';

export const SIGN_IN_OFF_MESSAGE =
  'Sign in with Bluesky is not turned on on this lorebook server, so nobody can sign in from a browser here. Agents can still use a bearer token; the operator turns sign-in on as docs/deploy.md ("Turn on Sign in with Bluesky") describes.';

export function mountSignInOff(app: Hono<HttpEnv>, baseUrl: string): void {
  app.get(LOGIN_PATH, (c) => {
    const error = new LorebookError('not_found', SIGN_IN_OFF_MESSAGE, { retryable: false, details: { reason: 'sign_in_off' } });
    // Browsers get a page; anything else the problem+json every other refusal is.
    if (!(c.req.header('accept') ?? '').includes('text/html')) throw error;
    return c.html(refusalPage(error, { href: '/', label: 'Back to the stories' }), 404, {
      ...refusalHeaders(error, baseUrl),
      'Cache-Control': 'no-store',
    });
  });
}
