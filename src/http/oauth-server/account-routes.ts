// GET /account (signed in with Bluesky, otherwise sent to sign in and back), POST /account/revoke,
// GET /account/export (the export as a download), GET and POST /account/redact (the redact form,
// design.md#redaction-export) and POST /account/delete (design.md#account-deletion). The forms' CSRF token is derived from the session cookie, which another
// site can neither read (HttpOnly) nor send on a cross-site POST (SameSite=Lax).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import { accountAccess, revokeForAccount } from '../../app/oauth-server/account-access.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { mediaType, readBodyText } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import { exportDownload } from '../v1/export-account.ts';
import { ACCOUNT_DELETE_PATH, ACCOUNT_EXPORT_PATH, ACCOUNT_PATH, ACCOUNT_REDACT_PATH, ACCOUNT_REVOKE_PATH } from './account-paths.ts';
import { PAGE_HEADERS, signedInPerson, signInFirst } from './authorize-routes.ts';

// The page's HTML and the author's story list load on the first request for them, not at a cold
// start (what the http function loads at a cold start is bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
const pages = () => import('./account-page.ts');
const ownStoryReads = () => import('../../app/redaction/own-stories.ts');

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
  redacted: 'Redacted: the earlier revisions no longer hold their text.',
  mistyped: 'The handle you typed is not your handle: nothing was deleted.',
};

const FORGED = 'This form is not from your account page. Reload /account and press the button there.';

async function formOf(c: Context<HttpEnv>, limit: number): Promise<URLSearchParams> {
  return mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded'
    ? new URLSearchParams(await readBodyText(c.req.raw, limit))
    : new URLSearchParams();
}

export function mountAccount(app: Hono<HttpEnv>, deps: { ctx: AppContext; oauth: OAuthServer }): void {
  app.get(ACCOUNT_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const [access, stories] = await Promise.all([
      accountAccess(deps.ctx, person.account),
      (await ownStoryReads()).ownStories(deps.ctx, person),
    ]);
    const notice = NOTICES[c.req.query('done') ?? ''];
    return c.html((await pages()).accountPage(person, access, csrfFor(person.sessionCookie), notice, stories), 200, PAGE_HEADERS);
  });

  // The export as a download, for the web session (a GET: it changes nothing, so no CSRF token).
  app.get(ACCOUNT_EXPORT_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    return exportDownload(c, deps.ctx, person);
  });

  app.get(ACCOUNT_REDACT_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const story = await (await ownStoryReads()).ownStoryText(deps.ctx, person, c.req.query('slug') ?? '');
    return c.html((await pages()).redactPage(story, csrfFor(person.sessionCookie)), 200, PAGE_HEADERS);
  });

  app.post(ACCOUNT_REDACT_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    // A whole story (64 KiB) with room for the form's encoding.
    const form = await formOf(c, 512 * 1024);
    if (!sameSecret(form.get('csrf') ?? '', csrfFor(person.sessionCookie))) return c.text(FORGED, 403, PAGE_HEADERS);
    const slug = form.get('slug') ?? '';
    const markdown = form.get('markdown') ?? '';
    try {
      // Loaded on first use, not at a cold start (what the http function loads at a cold start is
      // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
      await (await import('../../app/redact-story.ts')).redactStory(deps.ctx, person, {
        slug,
        base_revision: Number(form.get('base_revision')),
        markdown,
      });
      return c.redirect(`${ACCOUNT_PATH}?done=redacted`, 303);
    } catch (error) {
      if (!isLorebookError(error) || !['validation_failed', 'payload_too_large', 'revision_conflict'].includes(error.code)) throw error;
      // Shown with the text as sent, so nothing typed is lost; a conflict shows the current revision's number to resend against.
      const story = await (await ownStoryReads()).ownStoryText(deps.ctx, person, slug);
      return c.html((await pages()).redactPage({ ...story, markdown }, csrfFor(person.sessionCookie), error.message), 422, PAGE_HEADERS);
    }
  });

  // Account deletion (design.md#account-deletion): the same CSRF check as revoking, and the handle typed again.
  app.post(ACCOUNT_DELETE_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const form = await formOf(c, 4096);
    if (!sameSecret(form.get('csrf') ?? '', csrfFor(person.sessionCookie))) return c.text(FORGED, 403, PAGE_HEADERS);
    try {
      // Loaded on first use, not at a cold start (what the http function loads at a cold start is
      // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
      await (await import('../../app/account/delete-account.ts')).deleteAccount(
        deps.ctx,
        { account: person.account, handle: person.handle },
        { confirm: form.get('confirm') ?? '' },
      );
    } catch (error) {
      if (isLorebookError(error) && error.code === 'validation_failed') return c.redirect(`${ACCOUNT_PATH}?done=mistyped`, 303);
      throw error;
    }
    deps.oauth.log(`lorebook: account ${person.account} deletion requested on the account page`);
    return c.html((await pages()).accountDeletedPage(person.handle), 200, PAGE_HEADERS);
  });

  app.post(ACCOUNT_REVOKE_PATH, async (c) => {
    const person = await signedInPerson(deps.ctx, c);
    if (person === undefined) return signInFirst(c, ACCOUNT_PATH);
    const form = await formOf(c, 4096);
    const kind = form.get('kind');
    const id = form.get('id') ?? '';
    if (
      !sameSecret(form.get('csrf') ?? '', csrfFor(person.sessionCookie)) ||
      (kind !== 'token' && kind !== 'grant') ||
      !/^[0-9a-f]{32,64}$/.test(id)
    ) {
      return c.text(FORGED, 403, PAGE_HEADERS);
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
