// The plain pages of signing in: a handle form and a page for each refusal. hono's `html` tag
// escapes every value; no scripts, a few lines of CSS.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { LorebookError } from '../../domain/errors.ts';

type Page = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}input,button{font:inherit;padding:.4rem .6rem}code{background:#f3f3f3;padding:0 .2rem}
.error{border-left:4px solid #b00;padding-left:.8rem}`;

export function layout(title: string, body: Page): Page {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · lorebook</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;
}

/** The sign-in form: a GET to /auth/login, so the handle lands in the same route as a link would. */
export function signInPage(returnTo: string): Page {
  return layout(
    'Sign in',
    html`<h1>Sign in to lorebook with Bluesky</h1>
<form method="get" action="/auth/login">
<input type="hidden" name="return_to" value="${returnTo}">
<label>Your Bluesky handle <input name="handle" placeholder="alice.bsky.social" autocomplete="username" required></label>
<button type="submit">Continue</button>
</form>
<p>You will sign in on your own Bluesky server; lorebook never sees your password.</p>`,
  );
}

/** A refusal as a page: what happened, what to do, and the typed code for whoever reports it. */
export function refusalPage(error: LorebookError, next: { href: string; label: string }): Page {
  return layout(
    'Sign-in stopped',
    html`<h1>Sign-in stopped</h1>
<p class="error">${error.message}</p>
<p><a href="${next.href}">${next.label}</a></p>
<p><small>Code: <code>${error.code}</code></small></p>`,
  );
}
