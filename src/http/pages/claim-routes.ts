// The claim page's routes (docs/pages.md). GET /claim/{token} shows the draft to whoever holds
// the link; its Claim and Decline buttons POST back to it and need a Bluesky web session. The
// forms' CSRF value is derived from the session cookie (HttpOnly, SameSite=Lax), and the request
// guard refuses foreign Origins, so another site can neither read nor forge it.
// The token never goes into a sign-in's stored return_to (design.md#data: secrets are stored hashed
// only): a signed-out visitor gets it in a short-lived HttpOnly cookie scoped to /claim, and
// signs in with return_to=/claim, which sends the browser back to its link.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppContext, Caller } from '../../app/context/app-context.ts';
import { claimDraft } from '../../app/drafts/claim-draft.ts';
import { declineDraft } from '../../app/drafts/decline-draft.ts';
import { draftByClaimToken } from '../../app/drafts/draft-by-claim-token.ts';
import { readWebSession, webSessionCookieValue } from '../../app/sign-in/web-session.ts';
import { claimPath, isClaimToken } from '../../domain/draft/claim-token.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { mediaType, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import { type ClaimPageViewer, claimPage } from './claim-page.ts';
import { renderOffloaded } from './rendered-bodies.ts';
import { missingPage } from './story-page.ts';

export const CLAIM_COOKIE = 'lorebook_claim';
const CLAIM_COOKIE_SECONDS = 15 * 60;

/**
 * The story pages' policy (no scripts, no frames), but forms may post back here. The page holds a
 * secret in its URL: never cached, never sent on as a Referer (a drafted image could be anyone's).
 */
const CLAIM_PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const NOTICES: Record<string, string> = {
  claimed: 'Claimed: it is in your drafts now. Edit it with your agent and publish it as yours (publish_draft).',
  declined: 'Declined. Nobody can claim it now.',
};

const csrfFor = (sessionCookie: string): string =>
  createHash('sha256').update(`lorebook claim form\u0000${sessionCookie}`).digest('base64url');

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface ClaimRouteDeps {
  ctx: AppContext;
  baseUrl: string;
  /** Counts the visit against the caller's IP budget (pages are anonymous). */
  visit(c: Context<HttpEnv>): Promise<void>;
}

interface Visitor {
  caller: Caller;
  sessionCookie: string;
}

export function mountClaimPages(app: Hono<HttpEnv>, deps: ClaimRouteDeps): void {
  const { ctx, baseUrl } = deps;
  const secure = new URL(baseUrl).protocol === 'https:';

  const visitor = async (c: Context<HttpEnv>): Promise<Visitor | undefined> => {
    const cookieHeader = c.req.header('cookie');
    const sessionCookie = webSessionCookieValue(cookieHeader);
    const session = sessionCookie === undefined ? undefined : await readWebSession(ctx, cookieHeader);
    return session === undefined || sessionCookie === undefined
      ? undefined
      : { caller: { account: session.accountId, handle: session.handle }, sessionCookie };
  };

  const show = async (c: Context<HttpEnv>, token: string, status: 200 | 403 | 409, notice?: string): Promise<Response> => {
    const draft = await draftByClaimToken(ctx, token);
    const who = await visitor(c);
    let viewer: ClaimPageViewer;
    if (who === undefined) {
      setCookie(c, CLAIM_COOKIE, token, { path: '/claim', httpOnly: true, sameSite: 'Lax', secure, maxAge: CLAIM_COOKIE_SECONDS });
      viewer = { kind: 'signed-out', signInHref: `/auth/login?${new URLSearchParams({ return_to: '/claim' }).toString()}` };
    } else viewer = { kind: 'signed-in', handle: who.caller.handle, csrf: csrfFor(who.sessionCookie) };
    // Single use: once it is no longer open, the story is shown only to its drafter and its claimer.
    const people = [draft.drafter.account, draft.claimer?.account];
    const mayRead = draft.status === 'open' || (who !== undefined && people.includes(who.caller.account));
    const body = mayRead ? await renderOffloaded({ markdown: draft.markdown ?? '', baseUrl }, ctx) : '';
    return c.html(await claimPage(draft, body, claimPath(token), baseUrl, viewer, notice), status, CLAIM_PAGE_HEADERS);
  };

  const noDraft = async (c: Context<HttpEnv>): Promise<Response> =>
    c.html(
      await missingPage(
        baseUrl,
        c.req.path,
        'There is no draft at this link. Check that it was copied whole; an unclaimed draft is removed 30 days after its link expired.',
      ),
      404,
      CLAIM_PAGE_HEADERS,
    );
  const missing = (c: Context<HttpEnv>, error: unknown): Promise<Response> => {
    if (isLorebookError(error) && error.code === 'not_found') return noDraft(c);
    throw error;
  };

  // Where a sign-in started on a claim page comes back to: the link the cookie remembers.
  app.get('/claim', (c) => {
    const token = getCookie(c, CLAIM_COOKIE);
    return token !== undefined && isClaimToken(token) ? c.redirect(claimPath(token), 303) : noDraft(c);
  });

  app.get('/claim/:token', async (c) => {
    await deps.visit(c);
    try {
      return await show(c, c.req.param('token'), 200, NOTICES[c.req.query('done') ?? '']);
    } catch (error) {
      return missing(c, error);
    }
  });

  app.post('/claim/:token', async (c) => {
    await deps.visit(c);
    const token = c.req.param('token');
    const who = await visitor(c);
    if (who === undefined) return c.redirect(claimPath(token), 303);
    const form =
      mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded'
        ? new URLSearchParams(await readBodyText(c.req.raw, 4096))
        : new URLSearchParams();
    const action = form.get('action');
    if (!sameSecret(form.get('csrf') ?? '', csrfFor(who.sessionCookie)) || (action !== 'claim' && action !== 'decline')) {
      return c.text(
        'This form is not from your claim page. Open the claim link again and press the button there.',
        403,
        CLAIM_PAGE_HEADERS,
      );
    }
    try {
      await (action === 'claim' ? claimDraft : declineDraft)(ctx, who.caller, { token });
      return c.redirect(`${claimPath(token)}?done=${action === 'claim' ? 'claimed' : 'declined'}`, 303);
    } catch (error) {
      if (isLorebookError(error) && (error.code === 'conflict' || error.code === 'forbidden')) {
        return show(c, token, error.code === 'conflict' ? 409 : 403, error.message);
      }
      return missing(c, error);
    }
  });
}
