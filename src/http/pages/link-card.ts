// Link-card tags for a story page: Open Graph (Bluesky's card, most unfurlers) and Twitter cards.
// The story's image when it is one of lorebook's own (story-image.ts), else a text-only card. Also the
// markdown alternate, for agents that land on the page and want the source.
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import type { Html } from './layout.ts';
import { cardImageUrl } from './story-image.ts';

export function linkCardTags(story: StoryView, url: string, baseUrl: string): Html {
  const image = cardImageUrl(story.image, baseUrl);
  const alt = story.image_alt ?? story.title;
  return html`<link rel="alternate" type="text/markdown" href="${url}.md">
<meta property="og:site_name" content="lorebook">
<meta property="og:type" content="article">
<meta property="og:title" content="${story.title}">
<meta property="og:description" content="${story.summary}">
<meta property="og:url" content="${url}">
<meta property="article:published_time" content="${story.published_at}">
<meta property="article:modified_time" content="${story.updated_at}">
${story.tags.map((tag) => html`<meta property="article:tag" content="${tag}">`)}
${image === undefined ? '' : html`<meta property="og:image" content="${image}"><meta property="og:image:alt" content="${alt}">`}
<meta name="twitter:card" content="${image === undefined ? 'summary' : 'summary_large_image'}">
<meta name="twitter:title" content="${story.title}">
<meta name="twitter:description" content="${story.summary}">
${image === undefined ? '' : html`<meta name="twitter:image" content="${image}"><meta name="twitter:image:alt" content="${alt}">`}`;
}
