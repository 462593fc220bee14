// The parts of a section's markdown the scanner reads: fenced and indented code blocks, inline
// code spans, and the prose around them. Read with the CommonMark parser the story parser uses,
// so a fence inside a list or a quote is found and a `## ` inside a fence is code.
import type { Nodes, PhrasingContent, Root } from 'mdast';
import { markdownTree } from '../story/markdown-tree.ts';

export type Piece =
  /** `lang`: the info string's first word, lower-cased ("" when none); `line`: 1-based line of the value's first line. */
  | { kind: 'code'; lang: string; value: string; line: number }
  | { kind: 'inline'; value: string; line: number }
  | { kind: 'prose'; value: string; line: number };

const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'tableCell']);

// A quotation in prose is an example someone said or warned about, not a step: what stands
// between these marks (code spans too) is not read.
const QUOTE_TOGGLE = '"';
const QUOTE_OPEN = new Set(['\u201c', '\u00ab', '\u201e']);
const QUOTE_CLOSE = new Set(['\u201d', '\u00bb']);

/** Visits every node in document order, with an explicit stack so deep nesting cannot overflow it. */
function eachBlock(root: Nodes, visit: (node: Nodes) => boolean): void {
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!visit(node) || !('children' in node)) continue;
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as Nodes);
  }
}

function flattenPhrasing(children: readonly PhrasingContent[]): PhrasingContent[] {
  const flat: PhrasingContent[] = [];
  const stack = [...children].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if ('children' in node)
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as PhrasingContent);
    else flat.push(node);
  }
  return flat;
}

/** Prose and inline code of one paragraph (or heading, or table cell), quotations left out. */
function phrasingPieces(children: readonly PhrasingContent[], pieces: Piece[]): void {
  let quoted = false;
  for (const node of flattenPhrasing(children)) {
    const line = node.position?.start.line ?? 1;
    if (node.type === 'inlineCode') {
      if (!quoted) pieces.push({ kind: 'inline', value: node.value, line });
      continue;
    }
    if (node.type !== 'text') continue;
    node.value.split('\n').forEach((text, offset) => {
      let unquoted = '';
      for (const char of text) {
        if (char === QUOTE_TOGGLE) quoted = !quoted;
        else if (QUOTE_OPEN.has(char)) quoted = true;
        else if (QUOTE_CLOSE.has(char)) quoted = false;
        else if (!quoted) unquoted += char;
      }
      if (unquoted.trim() !== '') pieces.push({ kind: 'prose', value: unquoted, line: line + offset });
    });
  }
}

function isFenced(markdown: string, offset: number): boolean {
  return /^[ \t]*(?:```|~~~)/.test(markdown.slice(offset, offset + 8));
}

/** `tree`: the markdown already parsed, when the caller has it (the passage rules read the same tree). */
export function readPieces(markdown: string, tree: Root = markdownTree(markdown)): Piece[] {
  const pieces: Piece[] = [];
  eachBlock(tree, (node) => {
    if (node.type === 'code') {
      const start = node.position?.start ?? { line: 1, offset: 0 };
      const fenced = isFenced(markdown, start.offset ?? 0);
      pieces.push({ kind: 'code', lang: (node.lang ?? '').toLowerCase(), value: node.value, line: start.line + (fenced ? 1 : 0) });
      return false;
    }
    if (PHRASING_PARENTS.has(node.type) && 'children' in node) {
      phrasingPieces(node.children as PhrasingContent[], pieces);
      return false;
    }
    return true;
  });
  return pieces;
}
