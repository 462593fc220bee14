import type { Nodes } from 'mdast';
import { markdownTree } from './markdown-tree.ts';

// Sections carry machine-readable labels ("Steps:", "Verify:", ...). A label counts wherever a
// person would read one: at the start of a line or of a sentence ("Has the problem: x. Doesn't
// have it: y."), plain, bold (`**Steps:**`), in a list item or a blockquote, as a sub-heading
// (`### Steps`), escaped or as a character reference by an exporter (`Doesn&#39;t`), with a
// straight or curly apostrophe, in any case and spacing — but never inside a code block.
//
// The text compared is what the CommonMark parser reads (mdast text), not the source: markup,
// list and quote markers, backslash escapes and character references are resolved by the parser
// instead of by guessing with patterns, and each piece keeps its source line.

export interface SectionText {
  /** The readable text of each source line (0-based), in a comparable form; "" for code lines. */
  lines: string[];
  /** Source lines (0-based) inside code blocks: content a reader sees, never a label. */
  codeLines: ReadonlySet<number>;
}

/** Where a label starts: a 0-based line of SectionText and a column in its comparable text. */
export interface LabelPosition {
  line: number;
  column: number;
}

/** Case, spacing, apostrophes and a space before the colon don't change what a label says. */
export function comparable(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/ :/g, ':')
    .trim()
    .toLowerCase();
}

/** Visits every node in document order, with an explicit stack so deep nesting cannot overflow it. */
function eachNode(root: Nodes, visit: (node: Nodes) => void): void {
  const stack: Nodes[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    visit(node);
    if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as Nodes);
  }
}

export function readSectionText(markdown: string): SectionText {
  const pieces: string[][] = markdown.split('\n').map(() => []);
  const codeLines = new Set<number>();
  const headingLines: number[] = [];
  eachNode(markdownTree(markdown), (node) => {
    const start = node.position?.start.line;
    if (start === undefined) return;
    if (node.type === 'code') {
      for (let line = start - 1; line < (node.position?.end.line ?? start); line++) codeLines.add(line);
    } else if (node.type === 'heading') {
      headingLines.push(start - 1);
    } else if (node.type === 'text' || node.type === 'inlineCode') {
      // A text node runs over soft line breaks; its value keeps them, so each piece finds its line.
      node.value.split('\n').forEach((piece, offset) => {
        pieces[start - 1 + offset]?.push(piece);
      });
    }
  });
  const lines = pieces.map((parts) => comparable(parts.join('')));
  // A sub-heading is a label on its own: `### Steps` reads as `Steps:`.
  for (const line of headingLines) {
    const text = lines[line];
    if (text !== undefined && text !== '' && !text.endsWith(':')) lines[line] = `${text}:`;
  }
  return { lines, codeLines };
}

/** True when `column` begins the line or a sentence (after `.`, `!`, `?` or `;` and a space). */
function startsLineOrSentence(line: string, column: number): boolean {
  // Only the few characters before the label decide, so a line of near-misses costs linear time.
  return column === 0 || /[.!?;…]["'”)\]]{0,3} $/.test(line.slice(Math.max(0, column - 5), column));
}

/** The first place at or after `from` where `label` starts a line or a sentence, or undefined. */
export function findLabel(text: SectionText, label: string, from: LabelPosition = { line: 0, column: 0 }): LabelPosition | undefined {
  const wanted = comparable(label);
  for (let line = from.line; line < text.lines.length; line++) {
    const content = text.lines[line] ?? '';
    let column = content.indexOf(wanted, line === from.line ? from.column : 0);
    while (column !== -1) {
      if (startsLineOrSentence(content, column)) return { line, column };
      column = content.indexOf(wanted, column + 1);
    }
  }
  return undefined;
}

/** The position just past a label found at `at`, where the text it introduces begins. */
export function afterLabel(at: LabelPosition, label: string): LabelPosition {
  return { line: at.line, column: at.column + comparable(label).length };
}
