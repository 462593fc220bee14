// How a line of markdown continues and opens block containers (block quotes, list items, GFM
// footnote definitions), read leniently so that the depth and the count are never lower than the
// parser's: the container half of the pre-scan in markdown-shape.ts.

/** `unsure`: a line since it was opened continued none of it; a later match may be a new one. */
export type Container = ({ kind: 'quote' } | { kind: 'item'; indent: number }) & { unsure?: boolean };

/** Containers followed per line; past this the text is far over any nesting limit anyway. */
const TRACKED_DEPTH = 256;

/** Columns from `from` to `to` (a tab to the next multiple of 4), counting at most `cap`. */
function columnsOf(text: string, from: number, to: number, cap = Number.POSITIVE_INFINITY): number {
  let columns = 0;
  for (let index = from; index < to && columns <= cap; index += 1) columns += text[index] === '\t' ? 4 - (columns % 4) : 1;
  return columns;
}

/**
 * One line read left to right. Positions only move forward, so the next non-blank position is
 * remembered and the whole line is scanned once however many containers it is matched against.
 */
export class LineCursor {
  readonly text: string;
  /** The line's end without trailing spaces and tabs: the rest is blank from here. */
  readonly contentEnd: number;
  #nonBlank = -1;

  constructor(text: string) {
    this.text = text;
    let end = text.length;
    while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end -= 1;
    this.contentEnd = end;
  }

  /** Index of the first character from `from` that is not a space or tab. */
  skipIndent(from: number): number {
    if (this.#nonBlank < from) {
      let index = from;
      while (this.text[index] === ' ' || this.text[index] === '\t') index += 1;
      this.#nonBlank = index;
    }
    return this.#nonBlank;
  }

  isBlank(from: number): boolean {
    return from >= this.contentEnd;
  }
}

/** The end of a list marker at `at` (`-`, `+`, `*`, `1.`, `1)`) followed by a space or the line's end, or -1. */
function listMarkerEnd(text: string, at: number): number {
  let end = at;
  const char = text[at];
  if (char === '-' || char === '+' || char === '*') end = at + 1;
  else {
    while (end - at < 9 && text[end] !== undefined && text[end]! >= '0' && text[end]! <= '9') end += 1;
    if (end === at || (text[end] !== '.' && text[end] !== ')')) return -1;
    end += 1;
  }
  const after = text[end];
  return after === undefined || after === ' ' || after === '\t' ? end : -1;
}

export interface LineContainers {
  depth: number;
  /** Containers matched that may have been closed and opened again (counted as opened). */
  reopened: number;
  /** Where the line's content starts, after every container prefix. */
  contentStart: number;
  opened: number;
  /** The line opens a container that can interrupt a paragraph (a quote, a bullet or `1.` item with text): a new paragraph starts. */
  interrupts: boolean;
  /** An empty list item cannot interrupt a paragraph: a line of only its marker may be the paragraph's text. */
  opensEmptyItem: boolean;
  /** A line of text that continues some open containers without their markers: it may be a lazy continuation. */
  lazy: boolean;
}

/**
 * Matches the open containers against the line, then opens new ones. Leniently: an item
 * continues on any indentation, and a non-blank line that continues nothing keeps the stack (it
 * may be a lazy continuation), so the depth is never lower than the parser's. Such kept
 * containers are unsure: matching one later counts it as opened again, since the parser may have
 * closed it (`> a`, `# h`, `> b` is two quotes), so the count is never lower either. After a
 * blank line (`afterBlank`) nothing continues lazily.
 */
export function readContainers(line: LineCursor, stack: Container[], afterBlank: boolean): LineContainers {
  const text = line.text;
  let at = 0;
  let matched = 0;
  let reopened = 0;
  for (const container of stack) {
    if (container.kind === 'quote') {
      const marker = line.skipIndent(at);
      if (text[marker] !== '>' || columnsOf(text, at, marker, 3) > 3) break;
      at = text[marker + 1] === ' ' ? marker + 2 : marker + 1;
    } else if (!line.isBlank(at)) {
      const content = line.skipIndent(at);
      if (content === at) break;
      // Consume at most the item's own indentation; deeper indentation may hold more items.
      let consumed = at;
      while (consumed < content && columnsOf(text, at, consumed + 1, container.indent) <= container.indent) consumed += 1;
      at = consumed;
    }
    if (container.unsure === true) {
      reopened += 1;
      container.unsure = false;
    }
    matched += 1;
  }
  const opened: Container[] = [];
  let openedCount = 0;
  let interrupts = false;
  let opensEmptyItem = false;
  for (;;) {
    const base = at;
    const marker = line.skipIndent(at);
    if (columnsOf(text, at, marker, 3) > 3) break;
    let container: Container;
    if (text[marker] === '>') {
      container = { kind: 'quote' };
      at = text[marker + 1] === ' ' ? marker + 2 : marker + 1;
      if (openedCount === 0) interrupts = true;
    } else if (text.startsWith('[^', marker)) {
      // A GFM footnote definition holds blocks like a list item does, continued by 4 columns of indent.
      const labelEnd = text.indexOf(']', marker + 2);
      if (labelEnd <= marker + 2 || text[labelEnd + 1] !== ':') break;
      container = { kind: 'item', indent: columnsOf(text, base, marker) + 4 };
      at = line.skipIndent(labelEnd + 2);
    } else {
      const end = listMarkerEnd(text, marker);
      if (end === -1) break;
      const content = line.skipIndent(end);
      // CommonMark: an ordered item interrupts a paragraph only when it starts at 1, and no empty item does.
      if (openedCount === 0) {
        opensEmptyItem = line.isBlank(content);
        interrupts = (end - marker === 1 || /^1[.)]$/.test(text.slice(marker, end))) && !opensEmptyItem;
      }
      container = { kind: 'item', indent: columnsOf(text, base, end) + Math.max(1, Math.min(4, columnsOf(text, end, content, 4))) };
      at = content;
    }
    openedCount += 1;
    if (matched + opened.length < TRACKED_DEPTH) opened.push(container);
  }
  if (openedCount > 0) stack.splice(matched, stack.length - matched, ...opened);
  // A blank line closes every quote it does not continue (items always continue over one), and
  // after one there is no paragraph to continue lazily: what a line does not continue is closed.
  else if (line.isBlank(at) || afterBlank) stack.length = matched;
  else for (const container of stack.slice(matched)) container.unsure = true;
  const lazy = openedCount === 0 && matched < stack.length;
  return { depth: matched + openedCount, reopened, contentStart: at, opened: openedCount, interrupts, opensEmptyItem, lazy };
}
