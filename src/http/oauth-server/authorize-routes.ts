// The browser half of the authorization code flow: GET /oauth/authorize judges the request, sends
// a person who is not signed in to Sign in with Bluesky (and back here), then shows the consent
// page; POST /oauth/consent records Approve or Deny once and redirects to the client. The form's
// only secret is the consent secret, derived from the session cookie (HttpOnly, SameSite=Lax),
// so another site can neither read nor forge it (CSRF).
import type { Context, Hono } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import { judgeAuthorizeRequest, redirectWith } from '../../app/oauth-server/authorize-request.ts';
import { answerConsent, type SignedInPerson, showConsent } from '../../app/oauth-server/consent.ts';
import { readWebSession, webSessionCookieValue } from '../../app/sign-in/web-session.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import type { ClientAddress } from '../admission.ts';
import { mediaType, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import { authorizeRefusalPage, consentPage, returnToClientPage } from './consent-page.ts';
import { OAUTH_PATHS } from './metadata.ts';
import { NO_STORE } from './oauth-answer.ts';
import { oauthForRequest } from './oauth-for-request.ts';

/** Never cached, never framed (clickjacking an Approve button), no scripts at all. */
export const PAGE_HEADERS = {
  ...NO_STORE,
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

export interface AuthorizeRouteDeps {
  ctx: AppContext;
  oauth: OAuthServer;
  /** The caller's address: a client metadata document an authorize request names is fetched on its budget. */
  clientAddress?: ClientAddress | undefined;
}

/** The signed-in person of the request, with the raw session cookie the consent secret is derived from. */
export async function signedInPerson(ctx: AppContext, c: Context<HttpEnv>): Promise<SignedInPerson | undefined> {
  const cookieHeader = c.req.header('cookie');
  const sessionCookie = webSessionCookieValue(cookieHeader);
  const session = sessionCookie === undefined ? undefined : await readWebSession(ctx, cookieHeader);
  return session === undefined || sessionCookie === undefined
    ? undefined
    : { account: session.accountId, handle: session.handle, sessionCookie };
}

export const signInFirst = (c: Context<HttpEnv>, returnTo: string): Response =>
  c.redirect(`/auth/login?${new URLSearchParams({ return_to: returnTo }).toString()}`, 302);

export function mountAuthorize(app: Hono<HttpEnv>, deps: AuthorizeRouteDeps): void {
  app.get(OAUTH_PATHS.authorize, async (c) => {
    const url = new URL(c.req.url);
    const verdict = await judgeAuthorizeRequest(deps.ctx, oauthForRequest(c, deps), url.searchParams);
    if (!verdict.ok) {
      if (verdict.redirect === undefined) return c.html(authorizeRefusalPage(verdict.error), 400, NO_STORE);
      // Every client registered itself (unverified), so its redirect URI may be anyone's site:
      // the error goes back to it only through a link the person chooses (RFC 9700 §4.11.2).
      const back = redirectWith(deps.oauth, verdict.redirect.uri, {
        error: verdict.error.error,
        error_description: verdict.error.message,
        state: verdict.redirect.state,
      });
      return c.html(returnToClientPage(verdict.error, verdict.redirect.clientName, back), 400, PAGE_HEADERS);
    }
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, `${url.pathname}${url.search}`);
    const { consentSecret, consent } = await showConsent(deps.ctx, deps.oauth, person, verdict.request);
    // Reloading a page that was answered already (the back button) shows that answer again.
    if (consent.decision !== undefined)
      return c.redirect(
        (await answerConsent(deps.ctx, deps.oauth, person, consentSecret, consent.decision === 'approved')).redirectTo,
        303,
      );
    return c.html(consentPage(consent, consentSecret, person.handle), 200, PAGE_HEADERS);
  });

  app.post(OAUTH_PATHS.consent, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined)
      return c.html(
        authorizeRefusalPage(
          new OAuthError('access_denied', 'You are not signed in (or your sign-in expired). Go back to the app and connect again.'),
        ),
        401,
        NO_STORE,
      );
    if (mediaType(c.req.header('content-type')) !== 'application/x-www-form-urlencoded') {
      return c.html(authorizeRefusalPage(new OAuthError('invalid_request', 'The consent form was not sent as a form.')), 400, NO_STORE);
    }
    const form = new URLSearchParams(await readBodyText(c.req.raw, 4096));
    const decision = form.get('decision');
    const secret = form.get('consent') ?? '';
    if ((decision !== 'approve' && decision !== 'deny') || !/^[A-Za-z0-9_-]{43}$/.test(secret)) {
      return c.html(
        authorizeRefusalPage(
          new OAuthError('invalid_request', 'The consent form is incomplete: press Approve or Deny on the consent page.'),
        ),
        400,
        NO_STORE,
      );
    }
    try {
      const answer = await answerConsent(deps.ctx, deps.oauth, person, secret, decision === 'approve');
      return c.redirect(answer.redirectTo, 303);
    } catch (error) {
      if (isLorebookError(error) && error.code === 'not_found')
        return c.html(authorizeRefusalPage(new OAuthError('access_denied', error.message)), 400, NO_STORE);
      throw error;
    }
  });
}
