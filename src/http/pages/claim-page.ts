// `/claim/{token}`: a draft someone wrote for the person holding the link (docs/pages.md) — the
// drafter, their note, the story rendered safely like a story page, and while it is open a
// Claim and a Decline button (POST forms carrying the page's CSRF value), or a sign-in link.
import { html, raw } from 'hono/html';
import type { DraftView } from '../../app/drafts/draft-view.ts';
import { type Html, layout } from './layout.ts';
import { authorPath, displayDate, storyPath } from './page-format.ts';

export type ClaimPageViewer = { kind: 'signed-out'; signInHref: string } | { kind: 'signed-in'; handle: string; csrf: string };

const STATUS_TEXT: Record<DraftView['status'], string> = {
  open: 'Waiting for you to claim it.',
  claimed: 'Claimed.',
  published: 'Published.',
  declined: 'Declined.',
  withdrawn: 'Withdrawn by the person who drafted it.',
  expired: 'This link has expired: a draft can be claimed for 30 days.',
};

export function claimPage(draft: DraftView, body: string, path: string, baseUrl: string, viewer: ClaimPageViewer, notice?: string): Html {
  return layout(
    { title: `A story drafted for you: ${draft.title} — lorebook`, url: `${baseUrl}${path}`, noindex: true },
    html`<article>
<header class="card">
<p class="meta"><span class="drafter">Drafted for you by <a href="${authorPath(draft.drafter.handle)}">@${draft.drafter.handle}</a></span>
<span>${displayDate(draft.created_at.slice(0, 10))}</span>
${draft.invitee_handle === undefined ? '' : html`<span>for @${draft.invitee_handle}</span>`}</p>
<h1>${draft.title}</h1>
${draft.invitee_note === undefined ? '' : html`<blockquote class="invitee-note">${draft.invitee_note}</blockquote>`}
<p class="draft-status" data-status="${draft.status}">${STATUS_TEXT[draft.status]}${claimedBy(draft)}</p>
${notice === undefined ? '' : html`<p class="notice"><strong>${notice}</strong></p>`}
${draft.status === 'open' ? actions(path, viewer) : ''}
</header>
${
  body === ''
    ? ''
    : html`<section class="card story-body">
${raw(body)}
</section>`
}
</article>`,
  );
}

function claimedBy(draft: DraftView): Html | string {
  if (draft.story !== undefined) return html` <a href="${storyPath(draft.story)}">Read the story</a>`;
  return draft.claimer === undefined ? '' : html` By @${draft.claimer.handle}.`;
}

function actions(path: string, viewer: ClaimPageViewer): Html {
  if (viewer.kind === 'signed-out') {
    return html`<p class="actions"><a class="button" href="${viewer.signInHref}">Sign in with Bluesky to claim or decline it</a></p>`;
  }
  return html`<p>Signed in as @${viewer.handle}. Claiming puts it in your drafts; you then edit and publish it as yours.</p>
<form method="post" action="${path}" class="actions">
<input type="hidden" name="csrf" value="${viewer.csrf}">
<button type="submit" name="action" value="claim">Claim</button>
<button type="submit" name="action" value="decline">Decline</button>
</form>`;
}
