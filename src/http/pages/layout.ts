// The page shell every page shares: head (title, description, link-card tags, the stylesheet, the
// Atom feed link), site header and footer. Rendered with hono's `html` template, which escapes
// every interpolated value; only HTML we built ourselves goes in through `raw`.

import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { CSS_PATH } from './page-css.ts';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export const ATOM_PATH = '/feed.atom';

export interface PageHead {
  title: string;
  description?: string;
  /** The page's own absolute URL (canonical link, og:url). */
  url: string;
  /** Extra tags for the head (the link card of a story). */
  extra?: Html;
  /** Keep the page out of search engines (tombstones, errors). */
  noindex?: boolean;
}

export function layout(head: PageHead, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${head.title}</title>
${head.description === undefined ? '' : html`<meta name="description" content="${head.description}">`}
<link rel="canonical" href="${head.url}">
${head.noindex === true ? html`<meta name="robots" content="noindex">` : ''}
<link rel="stylesheet" href="${CSS_PATH}">
<link rel="alternate" type="application/atom+xml" title="lorebook: new stories" href="${ATOM_PATH}">
${head.extra ?? ''}
</head>
<body>
<header class="site-header">
<a class="brand" href="/">lore<span>book</span></a>
<nav><a href="/">Newest</a><a href="${ATOM_PATH}">Atom feed</a></nav>
</header>
<main>
${body}
</main>
<footer class="site-footer">
<span>lorebook — what people built, what failed, what worked, and whether it worked for others.</span>
<a href="/v1/openapi.json">API</a>
</footer>
</body>
</html>`;
}
