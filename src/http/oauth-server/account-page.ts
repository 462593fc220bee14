// The account page: who is signed in, their tokens and their connected apps, each with a Revoke
// button (a POST form carrying the page's CSRF token). Plain HTML, no scripts.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AccountAccess } from '../../app/oauth-server/account-access.ts';
import type { OwnStoryLine } from '../../app/redaction/own-stories.ts';
import { layout } from '../sign-in/auth-pages.ts';
import { ACCOUNT_DELETE_PATH, ACCOUNT_EXPORT_PATH, ACCOUNT_REDACT_PATH, ACCOUNT_REVOKE_PATH } from './account-paths.ts';

type Page = HtmlEscapedString | Promise<HtmlEscapedString>;

const day = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString().replace('T', ' ').slice(0, 16);
const host = (uri: string): string => (URL.canParse(uri) ? new URL(uri).host || uri : uri);

function revokeButton(csrf: string, kind: 'token' | 'grant', id: string, label: string): Page {
  return html`<form method="post" action="${ACCOUNT_REVOKE_PATH}" style="display:inline">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${id}">
<button type="submit">${label}</button></form>`;
}

export function accountPage(
  person: { account: string; handle: string },
  access: AccountAccess,
  csrf: string,
  notice?: string,
  stories: readonly OwnStoryLine[] = [],
): Page {
  return layout(
    'Your account',
    html`<h1>@${person.handle}</h1>
<p>Account <code>${person.account}</code></p>
${notice === undefined ? '' : html`<p><strong>${notice}</strong></p>`}
<h2>Connected apps</h2>
${
  access.grants.length === 0
    ? html`<p>No app is connected.</p>`
    : html`<table><tr><th>App</th><th>Returns to</th><th>Connected</th><th></th></tr>
${access.grants.map((grant) => html`<tr><td>${grant.client_name}</td><td><code>${host(grant.redirect_uri)}</code></td><td>${grant.created_at.slice(0, 16).replace('T', ' ')}</td><td>${revokeButton(csrf, 'grant', grant.grant_id, 'Disconnect')}</td></tr>`)}
</table>`
}
<h2>Tokens</h2>
${
  access.tokens.length === 0
    ? html`<p>No live token.</p>`
    : html`<table><tr><th>For</th><th>Kind</th><th>Expires (UTC)</th><th></th></tr>
${access.tokens.map((token) => html`<tr><td>${token.client ?? '—'}</td><td>${token.grant_id === undefined ? 'token' : 'app access token'}</td><td>${day(token.expires_at)}</td><td>${revokeButton(csrf, 'token', token.token_hash, 'Revoke')}</td></tr>`)}
</table>`
}
<h2>Your stories</h2>
${
  stories.length === 0
    ? html`<p>No story yet.</p>`
    : html`<table><tr><th>Story</th><th>Revision</th><th></th></tr>
${stories.map((story) => html`<tr><td><a href="/s/${story.slug}">${story.title}</a></td><td>${story.revision}</td><td><a href="${ACCOUNT_REDACT_PATH}?slug=${encodeURIComponent(story.slug)}">Redact…</a></td></tr>`)}
</table>`
}
<h2>Your data</h2>
<p><a href="${ACCOUNT_EXPORT_PATH}" download>Download everything (JSON)</a>: your account, stories with every revision, reports, drafts, notifications, images and connected apps.</p>
<form method="post" action="/auth/logout"><button type="submit">Sign out</button></form>
<h2>Delete your account</h2>
<p>Deletes your stories (their pages say they were deleted, their Bluesky posts are deleted), takes
your reproductions and checks back from other stories, and deletes your notifications, drafts,
images, tokens and connected apps. It cannot be undone; signing in again later starts an empty account.</p>
<form method="post" action="${ACCOUNT_DELETE_PATH}">
<input type="hidden" name="csrf" value="${csrf}">
<label>Type your handle to confirm: <input name="confirm" autocomplete="off" required></label>
<button type="submit">Delete my account</button></form>`,
  );
}

/** After the deletion was accepted: the session no longer works, so this is the last page. */
export function accountDeletedPage(handle: string): Page {
  return layout(
    'Account deleted',
    html`<h1>@${handle} is being deleted</h1>
<p>Your sessions and tokens no longer work. Your stories, reports and everything else are being deleted now.</p>
<p><a href="/">lorebook</a></p>`,
  );
}

/**
 * The redact form: the current text to edit, sent with the revision it was read at (a story
 * edited meanwhile answers revision_conflict) and the page's CSRF token.
 */
export function redactPage(story: OwnStoryLine & { markdown: string }, csrf: string, problem?: string): Page {
  return layout(
    `Redact ${story.title}`,
    html`<h1>Redact “${story.title}”</h1>
<p>Take the secret out of the text below and press Redact. The text becomes a new revision, and the stored text of <strong>every earlier revision</strong> is removed for good (their kind, time and note stay). Images only the removed text showed, that you uploaded, are deleted. Rotate the leaked secret anyway: copies made before (readers, feeds, caches) cannot be called back.</p>
${problem === undefined ? '' : html`<p><strong>${problem}</strong></p>`}
<form method="post" action="${ACCOUNT_REDACT_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="slug" value="${story.slug}"><input type="hidden" name="base_revision" value="${String(story.revision)}">
<p><textarea name="markdown" rows="30" cols="100">${story.markdown}</textarea></p>
<button type="submit">Redact</button> <a href="/account">Cancel</a>
</form>`,
  );
}
