import type { Nodes } from 'mdast';
import { toString as nodeText } from 'mdast-util-to-string';
import { markdownTree } from './markdown-tree.ts';

/** Longest summary, in characters (code points), including the closing "…". */
export const MAX_SUMMARY_CHARS = 280;

function firstParagraph(node: Nodes): Nodes | undefined {
  if (node.type === 'paragraph') return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children) {
    const found = firstParagraph(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Cuts text to at most `max` characters on a word boundary, ending with "…" when cut. */
export function truncateOnWord(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  // Keep the head whole when the next character starts a gap; otherwise drop the cut word.
  const endsOnWord = /\s/.test(chars[max - 1] ?? ' ');
  const boundary = head.search(/\s\S*$/);
  const cut = endsOnWord || boundary <= 0 ? head : head.slice(0, boundary);
  return `${cut.replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/**
 * The story's first narrative paragraph as plain text (markup dropped, link text kept, whitespace
 * collapsed), for lists, feeds and the Bluesky post.
 */
export function summarize(narrative: string): string {
  const tree = markdownTree(narrative);
  const text = nodeText(firstParagraph(tree) ?? tree)
    .replace(/\s+/g, ' ')
    .trim();
  return truncateOnWord(text, MAX_SUMMARY_CHARS);
}
