// Story markdown -> HTML for the pages, with micromark (CommonMark + GFM). Safe by micromark's own
// defaults: raw HTML is escaped (never passed through: allowDangerousHtml stays off) and link
// targets outside http(s)/mailto/irc/xmpp or relative paths (javascript:, data:, vbscript:, ...)
// come out as an empty href. Two rules are ours, applied to micromark's output, which holds no
// tag it did not write itself (any tag in the source was escaped to text):
// - images only from absolute http(s) URLs or lorebook's own image path (`/i/<sha256>.<ext>`,
//   what upload_image stores): micromark keeps relative and protocol-relative sources, which
//   would load from this site or a host the author merely implied; any other such image becomes
//   its alt text;
// - a refused link stays as its text without an href (an `href=""` would reload the page), and
//   outside links get rel="nofollow ugc noopener" (user content, no referrer-side window access).
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { CHECK_LABELS, REPRODUCE_LABELS } from '../../domain/story/check-story-body.ts';
import { splitFrontMatter } from '../../domain/story/front-matter.ts';
import { IMAGE_PATH_PREFIX, parseImageFile } from '../../domain/image/image-name.ts';

const IMAGE = /<img src="([^"]*)" alt="([^"]*)"[^>]*\/>/g;
const ABSOLUTE_HTTP = /^https?:\/\//i;

const allowedImageSource = (src: string): boolean =>
  ABSOLUTE_HTTP.test(src) || (src.startsWith(IMAGE_PATH_PREFIX) && parseImageFile(src.slice(IMAGE_PATH_PREFIX.length)) !== undefined);

export function renderMarkdown(markdown: string): string {
  const html = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return html
    .replace(IMAGE, (tag, src: string, alt: string) => (allowedImageSource(src) ? tag.replace('<img ', '<img loading="lazy" ') : alt))
    .replace(/<a href=""/g, '<a')
    .replace(/<a href="(https?:)/gi, '<a rel="nofollow ugc noopener" href="$1');
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
