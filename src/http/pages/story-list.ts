// A list of story summaries (the home page, an author's page), with the "older" pager link.
import { html } from 'hono/html';
import type { StorySummary } from '../../app/contract/story-shapes.ts';
import type { Html } from './layout.ts';
import { authorPath, displayDate, plural, storyPath, typeLabel } from './page-format.ts';

export function storyList(
  stories: StorySummary[],
  options: { showAuthor: boolean; olderHref: string | undefined; emptyText: string },
): Html {
  if (stories.length === 0) return html`<section class="card empty"><p>${options.emptyText}</p></section>`;
  return html`<ol class="story-list">
${stories.map((story) => storyItem(story, options.showAuthor))}
</ol>
${options.olderHref === undefined ? '' : html`<nav class="pager"><span></span><a rel="next" href="${options.olderHref}">Older stories →</a></nav>`}`;
}

function storyItem(story: StorySummary, showAuthor: boolean): Html {
  const tried = story.counts.worked + story.counts.partial + story.counts.failed;
  return html`<li class="card">
<div class="badges"><span class="badge type-${story.type}">${typeLabel(story)}</span></div>
<h2><a href="${storyPath(story.slug)}">${story.title}</a></h2>
<p class="lede">${story.summary}</p>
<p class="meta">
${showAuthor ? html`<span>by <a href="${authorPath(story.author.handle)}">@${story.author.handle}</a></span>` : ''}
<span>${displayDate(story.date)}</span>
<span>${tried === 0 ? 'not reproduced yet' : `reproduced ${tried}× · worked for ${plural(story.counts.worked, 'person', 'people')}`}</span>
</p>
${story.tags.length === 0 ? '' : html`<ul class="tags">${story.tags.map((tag) => html`<li class="tag">#${tag}</li>`)}</ul>`}
</li>`;
}
