// Story markdown -> HTML for the pages, with micromark (CommonMark + GFM). Safe by micromark's own
// defaults: raw HTML is escaped (never passed through: allowDangerousHtml stays off) and link
// targets outside http(s)/mailto/irc/xmpp or relative paths (javascript:, data:, vbscript:, ...)
// come out as an empty href. Three rules are ours, applied to micromark's output, which holds no
// tag it did not write itself (any tag in the source was escaped to text):
// - only lorebook's own images load (`/i/<sha256>.<ext>`, what upload_image stores, or that path
//   on the base URL), from the path, so the page's `img-src 'self'` covers them;
// - an image on another site is a link to it, never fetched by the reader's browser, which would
//   hand every reader's address to a host the author chose (design.md#slugs-dates-images); any other image (relative,
//   protocol-relative, data:, ...) becomes its alt text;
// - a refused link stays as its text without an href (an `href=""` would reload the page), and
//   outside links get rel="nofollow ugc noopener" (user content, no referrer-side window access).
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { IMAGE_PATH_PREFIX, ownImage } from '../../domain/image/image-name.ts';
import { CHECK_LABELS, REPRODUCE_LABELS } from '../../domain/story/check-story-body.ts';
import { splitFrontMatter } from '../../domain/story/front-matter.ts';
import { elsewhereImageLabel } from './elsewhere-image.ts';

/** An anchor's start or end, or an image: the tags whose nesting decides how an image is shown. */
const IMAGE_OR_ANCHOR = /<a\s[^>]*>|<a>|<\/a>|<img src="([^"]*)" alt="([^"]*)"[^>]*\/>/g;
const ABSOLUTE_HTTP = /^https?:\/\//i;

/** `baseUrl` is the public base URL: an image on it is lorebook's own; without it only the `/i/` path is. */
export function renderMarkdown(markdown: string, baseUrl?: string): string {
  const html = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return showImages(html, baseUrl)
    .replace(/<a href=""/g, '<a')
    .replace(/<a href="(https?:)/gi, '<a rel="nofollow ugc noopener" href="$1');
}

/** One pass over the tags micromark wrote, counting open anchors: a link inside a link is not HTML. */
function showImages(html: string, baseUrl: string | undefined): string {
  let openAnchors = 0;
  return html.replace(IMAGE_OR_ANCHOR, (tag, src: string | undefined, alt: string | undefined) => {
    if (src === undefined || alt === undefined) {
      openAnchors += tag === '</a>' ? -1 : 1;
      return tag;
    }
    const own = ownImage(src, baseUrl ?? '');
    if (own !== undefined) return tag.replace(`<img src="${src}"`, `<img loading="lazy" src="${IMAGE_PATH_PREFIX}${own.file}"`);
    if (!ABSOLUTE_HTTP.test(src) || !URL.canParse(src)) return alt;
    // The host of a parsed URL holds no `<`, `>` or quote; `&` stays the `&amp;` micromark wrote.
    const label = elsewhereImageLabel(alt, new URL(src).host);
    return openAnchors > 0 ? label : `<a class="image-link" rel="nofollow ugc noopener" href="${src}">${label}</a>`;
  });
}

/**
 * The part of a stored story a page shows as its body: without the front matter (shown as
 * metadata) and without the `# title` heading (the page's own heading).
 */
export function storyBodyMarkdown(markdown: string): string {
  const { body } = splitFrontMatter(markdown);
  return setLabelsApart(body.replace(/^\s*#[ \t]+[^\n]*(?:\n|$)/, ''));
}

const LABELS = [...REPRODUCE_LABELS, ...CHECK_LABELS, 'Read-only steps:'];
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The section labels of the story format ("Prerequisites:", "Steps:", "Verify:", ...) are written
 * one per line, which markdown would run together into one paragraph (or into the list above).
 * Each label line outside a code fence starts a paragraph of its own, with the label in bold.
 */
function setLabelsApart(body: string): string {
  let fence: string | undefined;
  return body
    .split('\n')
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (marker !== undefined) {
        if (fence === undefined) fence = marker;
        else if (marker.startsWith(fence)) fence = undefined;
        return line;
      }
      const label = fence === undefined ? LABELS.find((candidate) => line.startsWith(candidate)) : undefined;
      return label === undefined ? line : `\n**${label}**${line.slice(label.length)}`;
    })
    .join('\n');
}
