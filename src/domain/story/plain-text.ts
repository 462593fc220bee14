// A story as plain text, for its standard.site document's `textContent` (docs/design.md#standard-site): what
// a reader reads, without markup — the body after the front matter, one block per paragraph,
// heading, list item, quote line or code block, separated by a blank line. Images keep their
// alt text, links their text; raw HTML is dropped (it is markup, and never shown as text). A GFM
// table is read as CommonMark reads it (mdast here has no table extension): its rows as written.
import type { Nodes, Parents } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as nodeText } from 'mdast-util-to-string';
import { splitFrontMatter } from './front-matter.ts';

/** Nodes whose children are blocks of their own (each becomes one or more blocks of text). */
const CONTAINERS = new Set(['root', 'list', 'listItem', 'blockquote']);

function blocks(node: Nodes): string[] {
  if (CONTAINERS.has(node.type)) return (node as Parents).children.flatMap((child) => blocks(child as Nodes));
  if (node.type === 'code') return node.value === '' ? [] : [node.value];
  if (node.type === 'html' || node.type === 'thematicBreak' || node.type === 'definition') return [];
  const text = nodeText(node, { includeHtml: false }).trim();
  return text === '' ? [] : [text];
}

/** The story's text without its front matter or markup. */
export function storyPlainText(markdown: string): string {
  return blocks(fromMarkdown(splitFrontMatter(markdown).body)).join('\n\n');
}
