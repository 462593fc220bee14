import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

// Sections carry machine-readable labels ("Steps:", "Verify:", ...) at the start of a line.
// A label counts wherever a person would see one — plain, bold (`**Steps:**`), in a list item or
// a blockquote, with a straight or curly apostrophe — but never inside a code block.

export interface SectionText {
  /** Lines of the section with code blocks blanked out, in a comparable form. */
  lines: string[];
  /** 1-based line numbers where a list or code block starts (candidate "steps"). */
  stepLines: number[];
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

function comparable(line: string): string {
  return line
    .replace(/^[\s>]*(?:[-*+]\s+|\d+[.)]\s+)?/, '')
    .replace(/[*_`]/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .trim()
    .toLowerCase();
}

export function readSectionText(markdown: string): SectionText {
  const stepLines: number[] = [];
  const codeRanges: Array<[number, number]> = [];
  walk(fromMarkdown(markdown), (node) => {
    const position = node.position;
    if (position === undefined) return;
    if (node.type === 'list' || node.type === 'code') stepLines.push(position.start.line);
    if (node.type === 'code') codeRanges.push([position.start.offset ?? 0, position.end.offset ?? 0]);
  });
  // Blank code blocks but keep their length and newlines, so offsets and line numbers stay true.
  let visible = markdown;
  for (const [from, to] of codeRanges) {
    visible = visible.slice(0, from) + visible.slice(from, to).replace(/[^\n]/g, ' ') + visible.slice(to);
  }
  return { lines: visible.split('\n').map(comparable), stepLines };
}

/** 1-based line number of the first line starting with `label`, or undefined. */
export function labelLine(text: SectionText, label: string): number | undefined {
  const wanted = comparable(label);
  const index = text.lines.findIndex((line) => line.startsWith(wanted));
  return index === -1 ? undefined : index + 1;
}
