// The account page: who is signed in, their tokens and their connected apps, each with a Revoke
// button (a POST form carrying the page's CSRF token). Plain HTML, no scripts.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AccountAccess } from '../../app/oauth-server/account-access.ts';
import { layout } from '../sign-in/auth-pages.ts';

type Page = HtmlEscapedString | Promise<HtmlEscapedString>;

export const ACCOUNT_PATH = '/account';
export const ACCOUNT_REVOKE_PATH = '/account/revoke';
export const ACCOUNT_DELETE_PATH = '/account/delete';

const day = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString().replace('T', ' ').slice(0, 16);
const host = (uri: string): string => (URL.canParse(uri) ? new URL(uri).host || uri : uri);

function revokeButton(csrf: string, kind: 'token' | 'grant', id: string, label: string): Page {
  return html`<form method="post" action="${ACCOUNT_REVOKE_PATH}" style="display:inline">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${id}">
<button type="submit">${label}</button></form>`;
}

export function accountPage(person: { account: string; handle: string }, access: AccountAccess, csrf: string, notice?: string): Page {
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
