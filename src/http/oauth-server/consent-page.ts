// The consent page and the authorize step's refusal page: plain HTML (hono's `html` escapes every
// value), no scripts. The page names the app as it registered itself and the host it will send
// the person back to, and says plainly what the app may do as this account.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { isClientIdUrl } from '../../auth/oauth/client-id-url.ts';
import { heldScopes, type Scope } from '../../auth/oauth/scopes.ts';
import type { OAuthError } from '../../domain/oauth-error.ts';
import type { ConsentRequest } from '../../store/identity/consent-items.ts';
import { layout } from '../sign-in/auth-pages.ts';
import { OAUTH_PATHS } from './metadata.ts';

type Page = HtmlEscapedString | Promise<HtmlEscapedString>;

/** What a connected app may do as this account, per scope it asked for. */
export const GRANTED_ABILITIES: Record<Scope, readonly string[]> = {
  'lorebook:read': ['read your notifications'],
  'lorebook:write': ['publish stories and edit your stories', 'report reproductions and checks on stories', 'mark your notifications read'],
};

export function consentPage(consent: ConsentRequest, consentSecret: string, handle: string): Page {
  const host = new URL(consent.redirect_uri).host || consent.redirect_uri;
  const abilities = heldScopes(consent.scope).flatMap((scope) => GRANTED_ABILITIES[scope]);
  return layout(
    'Connect an app',
    html`<h1>Connect “${consent.client_name}” to lorebook?</h1>
<p>You are signed in as <strong>@${handle}</strong>.</p>
<p>The app <strong>${consent.client_name}</strong> (it will return to <code>${host}</code>) asks to act as you. It may:</p>
<ul>${abilities.map((ability) => html`<li>${ability}</li>`)}</ul>
${whoSaysSo(consent.client_id)}
<p>It cannot change your Bluesky account. You can disconnect it any time on <a href="/account">your account page</a>.</p>
<form method="post" action="${OAUTH_PATHS.consent}">
<input type="hidden" name="consent" value="${consentSecret}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** Where the app's name comes from: a document at a URL (its host vouches for it) or the app's own registration. */
function whoSaysSo(clientId: string): Page {
  return isClientIdUrl(clientId)
    ? html`<p class="client-kind">This app is identified by its metadata document at <code>${clientId}</code>: its name is what <code>${new URL(clientId).host}</code> says.</p>`
    : html`<p class="client-kind">This app registered itself with lorebook; its name is its own claim, not verified.</p>`;
}

export function authorizeRefusalPage(error: OAuthError): Page {
  return layout(
    'Cannot connect this app',
    html`<h1>This app cannot be connected</h1>
<p class="error">${error.message}</p>
<p><small>Code: <code>${error.error}</code></small></p>`,
  );
}

/**
 * The interstitial for an authorization error addressed to a client's redirect URI: the client
 * registered itself and is not verified, so lorebook says where the link goes and lets the
 * person decide, instead of redirecting there on its own (an open redirector for phishing).
 */
export function returnToClientPage(error: OAuthError, clientName: string, href: string): Page {
  const host = new URL(href).host || new URL(href).protocol;
  return layout(
    'Cannot connect this app',
    html`<h1>“${clientName}” sent a request lorebook cannot accept</h1>
<p class="error">${error.message}</p>
<p><small>Code: <code>${error.error}</code></small></p>
<p>lorebook has not verified this app. It asked to be sent back to <code>${host}</code>; go there only if you trust it.</p>
<p><a href="${href}">Return to ${host}</a></p>`,
  );
}
