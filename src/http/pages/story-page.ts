// `/s/{slug}`: one story — badges, title, author, tags, stack, how reproducing and checking it
// went (and its aggregates, once enough reports carry them), what running its steps does (the
// capability box), its announcement on Bluesky, and the story itself rendered safely. A withdrawn
// story is a tombstone: its title and "withdrawn by author", nothing else.
import { html, raw } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import { answerPairsLine } from './answer-pairs-line.ts';
import { authorRecheckLine } from './author-recheck-line.ts';
import { capabilityBox } from './capability-box.ts';
import { draftedByLine } from './drafted-by-line.ts';
import { elsewhereImageLabel } from './elsewhere-image.ts';
import { type Html, layout } from './layout.ts';
import { linkCardTags } from './link-card.ts';
import { authorPath, displayDate, plural, postWebUrl, storyPath, typeLabel } from './page-format.ts';
import { aggregatesCard } from './reproduction-aggregates.ts';
import { revisionBadges } from './revision-badges.ts';
import { storyImage } from './story-image.ts';

function heroImage(story: StoryView, baseUrl: string): Html | string {
  const image = storyImage(story.image, baseUrl);
  if (image === undefined) return '';
  if (image.kind === 'own') return html`<img class="hero" src="${image.src}" alt="${story.image_alt ?? ''}">`;
  const label = elsewhereImageLabel(story.image_alt ?? '', image.host);
  return html`<p class="hero-link"><a class="image-link" rel="nofollow ugc noopener" href="${image.href}">${label}</a></p>`;
}

/** `body` is the story's body as HTML (rendered-bodies.ts). */
export function storyPage(story: StoryView, baseUrl: string, body: string): Html {
  const url = `${baseUrl}${storyPath(story.slug)}`;
  return layout(
    {
      title: `${story.title} — lorebook`,
      description: story.summary,
      url,
      extra: html`${linkCardTags(story, url, baseUrl)}${documentLink(story)}`,
    },
    html`<article>
<header class="card">
${badges(story)}
<h1>${story.title}</h1>
<p class="meta">
<span>by <a rel="author" href="${authorPath(story.author.handle)}">@${story.author.handle}</a></span>
${draftedByLine(story)}
<span><time datetime="${story.date}">${displayDate(story.date)}</time></span>
${story.agent === undefined ? '' : html`<span>agent: ${story.agent}${story.model === undefined ? '' : ` (${story.model})`}</span>`}
${announceLink(story)}
</p>
${story.tags.length === 0 ? '' : html`<ul class="tags">${story.tags.map((tag) => html`<li class="tag">#${tag}</li>`)}</ul>`}
${story.stack.length === 0 ? '' : html`<p class="stack">Stack: ${story.stack.map((item, index) => html`${index === 0 ? '' : ', '}<code>${item}</code>`)}</p>`}
${corrections(story)}
${answerPairsLine(story)}
</header>
${outcomes(story)}
${aggregatesCard(story.aggregates)}
${capabilityBox(story.capability)}
<section class="card story-body">
${heroImage(story, baseUrl)}
${raw(body)}
<p class="actions"><a href="${storyPath(story.slug)}.md">Raw markdown</a><span>Revision ${story.revision}</span></p>
</section>
</article>`,
  );
}

/** standard.site verification: the page names its document, once the announcer has written it (design.md#standard-site). */
function documentLink(story: StoryView): Html | string {
  return story.document_uri === undefined
    ? ''
    : html`
<link rel="site.standard.document" href="${story.document_uri}">`;
}

function badges(story: StoryView): Html {
  const { badges: history } = revisionBadges(story.revisions, displayDate);
  return html`<div class="badges">
<span class="badge type-${story.type}">${typeLabel(story)}</span>
${story.reproducible ? html`<span class="badge">reproducible</span>` : ''}
${history.map((badge) => html`<span class="badge ${badge.kind === 'corrected' ? 'correction' : ''}" data-badge="${badge.kind}">${badge.text}</span>`)}
</div>`;
}

function corrections(story: StoryView): Html | string {
  const { corrections: notes } = revisionBadges(story.revisions, displayDate);
  if (notes.length === 0) return '';
  return html`<div class="notes">${notes.map((note) => html`<p><strong>Corrected ${displayDate(note.at)}:</strong> ${note.note}</p>`)}</div>`;
}

function announceLink(story: StoryView): Html | string {
  const web = story.announce.uri === undefined ? undefined : postWebUrl(story.announce.uri);
  return web === undefined ? '' : html`<span><a href="${web}" rel="nofollow noopener">announced on Bluesky</a></span>`;
}

/** Reproductions by new accounts are shown apart, never in the counts above (design.md#new-accounts). */
function newAccountsLine(story: StoryView): string {
  const { worked, partial, failed } = story.new_account_counts;
  const fresh = worked + partial + failed;
  return fresh === 0 ? '' : ` (and ${fresh} by new accounts: ${worked} worked, ${partial} partial, ${failed} failed)`;
}

function outcomes(story: StoryView): Html {
  const { worked, partial, failed } = story.counts;
  const tried = worked + partial + failed;
  const checked = story.checks.has_problem + story.checks.no_problem;
  return html`<section class="card" aria-label="How it went for others">
<p class="summary-line" data-count="reproduced">${tried === 0 ? 'Not reproduced yet — be the first.' : `Reproduced ${tried}×`}${newAccountsLine(story)}</p>
<div class="outcomes">
<div class="outcome worked" data-count="worked"><strong>${worked}</strong><span>worked</span></div>
<div class="outcome partial" data-count="partial"><strong>${partial}</strong><span>partial</span></div>
<div class="outcome failed" data-count="failed"><strong>${failed}</strong><span>failed</span></div>
</div>
${
  story.has_check
    ? html`<p class="checks" data-count="checked">${checked === 0 ? 'Nobody has run the check yet.' : `Checked ${plural(checked, 'time')}: ${story.checks.has_problem} had it, ${story.checks.no_problem} didn't`}</p>`
    : ''
}
${authorRecheckLine(story)}
</section>`;
}

export function tombstonePage(slug: string, title: string, baseUrl: string): Html {
  return layout(
    { title: `${title} — withdrawn — lorebook`, url: `${baseUrl}${storyPath(slug)}`, noindex: true },
    html`<section class="card tombstone">
<h1>${title}</h1>
<p>This story was withdrawn by its author.</p>
<p><a href="/">See the newest stories</a></p>
</section>`,
  );
}

/** A story whose author deleted their account (design.md#account-deletion): no title is left to show. */
export function deletedStoryPage(slug: string, baseUrl: string): Html {
  return layout(
    { title: 'Deleted — lorebook', url: `${baseUrl}${storyPath(slug)}`, noindex: true },
    html`<section class="card tombstone">
<h1>Deleted</h1>
<p>This story was deleted by its author.</p>
<p><a href="/">See the newest stories</a></p>
</section>`,
  );
}

export function missingPage(baseUrl: string, path: string, text: string): Html {
  return layout(
    { title: 'Not found — lorebook', url: `${baseUrl}${path}`, noindex: true },
    html`<section class="card tombstone">
<h1>Nothing here</h1>
<p>${text}</p>
<p><a href="/">See the newest stories</a></p>
</section>`,
  );
}
