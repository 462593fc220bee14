// GET /account (signed in with Bluesky, otherwise sent to sign in and back), POST
// /account/revoke and POST /account/delete. The revoke form's CSRF token is derived from the session cookie, which another
// site can neither read (HttpOnly) nor send on a cross-site POST (SameSite=Lax).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { accountAccess, revokeForAccount } from '../../app/oauth-server/account-access.ts';
import type { AppContext } from '../../app/app-context.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { mediaType, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import { ACCOUNT_DELETE_PATH, ACCOUNT_PATH, ACCOUNT_REVOKE_PATH, accountDeletedPage, accountPage } from './account-page.ts';
import { deleteAccount } from '../../app/account/delete-account.ts';
import { PAGE_HEADERS, signedInPerson, signInFirst } from './authorize-routes.ts';

const csrfFor = (sessionCookie: string): string =>
  createHash('sha256').update(`lorebook account form\u0000${sessionCookie}`).digest('base64url');

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const NOTICES: Record<string, string> = {
  revoked: 'Revoked.',
  gone: 'That was already revoked.',
  mistyped: 'The handle you typed is not your handle: nothing was deleted.',
};

export function mountAccount(app: Hono<HttpEnv>, deps: { ctx: AppContext; oauth: OAuthServer }): void {
  app.get(ACCOUNT_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const access = await accountAccess(deps.ctx, person.account);
    const notice = NOTICES[c.req.query('done') ?? ''];
    return c.html(accountPage(person, access, csrfFor(person.sessionCookie), notice), 200, PAGE_HEADERS);
  });

  // Account deletion (design §18): the same CSRF check as revoking, and the handle typed again.
  app.post(ACCOUNT_DELETE_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const form =
      mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded'
        ? new URLSearchParams(await readBodyText(c.req.raw, 4096))
        : new URLSearchParams();
    if (!sameSecret(form.get('csrf') ?? '', csrfFor(person.sessionCookie))) {
      return c.text('This form is not from your account page. Reload /account and press the button there.', 403, PAGE_HEADERS);
    }
    try {
      await deleteAccount(deps.ctx, { account: person.account, handle: person.handle }, { confirm: form.get('confirm') ?? '' });
    } catch (error) {
      if (isLorebookError(error) && error.code === 'validation_failed') return c.redirect(`${ACCOUNT_PATH}?done=mistyped`, 303);
      throw error;
    }
    deps.oauth.log(`lorebook: account ${person.account} deletion requested on the account page`);
    return c.html(accountDeletedPage(person.handle), 200, PAGE_HEADERS);
  });

  app.post(ACCOUNT_REVOKE_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const form =
      mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded'
        ? new URLSearchParams(await readBodyText(c.req.raw, 4096))
        : new URLSearchParams();
    const kind = form.get('kind');
    const id = form.get('id') ?? '';
    if (
      !sameSecret(form.get('csrf') ?? '', csrfFor(person.sessionCookie)) ||
      (kind !== 'token' && kind !== 'grant') ||
      !/^[0-9a-f]{32,64}$/.test(id)
    ) {
      return c.text('This form is not from your account page. Reload /account and press the button there.', 403, PAGE_HEADERS);
    }
    try {
      const revoked = await revokeForAccount(deps.ctx, person.account, { kind, id });
      if (revoked)
        deps.oauth.log(
          `lorebook: ${kind === 'grant' ? `oauth grant ${id}` : `token ${id.slice(0, 12)}…`} revoked by ${person.account} on the account page`,
        );
      return c.redirect(`${ACCOUNT_PATH}?done=${revoked ? 'revoked' : 'gone'}`, 303);
    } catch (error) {
      if (isLorebookError(error) && error.code === 'not_found') return c.redirect(`${ACCOUNT_PATH}?done=gone`, 303);
      throw error;
    }
  });
}
