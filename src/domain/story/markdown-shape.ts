// A linear pre-scan of story markdown that measures the shapes which make CommonMark parsers
// (micromark, mdast-util-from-markdown) or their HTML super-linear, before any parser runs:
// - container nesting: `>` and list markers opened on one line, on top of the containers the
//   line continues (`>>>>…`, `- - - …`, or one more indented `- ` per line), and how many
//   containers the whole text opens;
// - emphasis delimiter runs (`*`, `_`, `~`) per block: micromark pairs them by scanning back
//   over every earlier one in the same paragraph;
// - per block outside fenced code, closing brackets and the backtick runs and `<!`/`<?` nothing
//   closes (inline-scan.ts);
// - setext headings (text underlined with `=` or `-`): micromark re-reads the document's events
//   for each one, so 6,000 of them took 16 s;
// - GFM tables: columns, and cells as rendered (a short row is padded to the header's width);
// - an estimate of the rendered HTML's size (escaping, nesting, table padding, reference links
//   repeating a long definition, footnote back-references).
// It errs on the high side (a `>` or `- ` inside a code block counts; a lazy line keeps its
// containers open) so that no input measures lower than what the parser will actually build.
// One pass over the characters: O(length) time, O(nesting) memory.

import { measureInlineCost } from './inline-scan.ts';

export interface Measured {
  value: number;
  /** 1-based line where the largest value was seen (the block's first line for per-block counts). */
  line: number;
}

export interface MarkdownShape {
  nestingDepth: Measured;
  /** Block quotes and list items in the whole text: micromark splices each one's events into the document's. */
  containers: number;
  emphasisRuns: Measured;
  labelEnds: Measured;
  unclosedCodeRuns: Measured;
  unclosedHtml: Measured;
  setextHeadings: number;
  tableColumns: Measured;
  tableCells: Measured;
  renderedBytes: number;
}

/** An open fenced code block: its lines are code, not inline text. `depth`: the containers it is in. */
interface Fence {
  char: string;
  length: number;
  depth: number;
}

/** `unsure`: a line since it was opened continued none of it; a later match may be a new one. */
type Container = ({ kind: 'quote' } | { kind: 'item'; indent: number }) & { unsure?: boolean };

// Generous per-byte and per-structure costs of the HTML (measured with micromark + GFM; the fuzz
// test checks the estimate never falls below a real render).
const HTML_BYTES_PER_BYTE = 10;
const HTML_BYTES_PER_LINE = 16;
const HTML_BYTES_PER_CONTAINER = 40;
const HTML_BYTES_PER_TABLE_CELL = 16;
const HTML_BYTES_PER_FOOTNOTE_CALL = 400;
/** A reference's href and title are percent- or entity-escaped: up to 6 bytes per source byte. */
const HTML_BYTES_PER_DEFINITION_BYTE = 6;

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
class LineCursor {
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

interface LineContainers {
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
}

/**
 * Matches the open containers against the line, then opens new ones. Leniently: an item
 * continues on any indentation, and a non-blank line that continues nothing keeps the stack (it
 * may be a lazy continuation), so the depth is never lower than the parser's. Such kept
 * containers are unsure: matching one later counts it as opened again, since the parser may have
 * closed it (`> a`, `# h`, `> b` is two quotes), so the count is never lower either.
 */
function readContainers(line: LineCursor, stack: Container[]): LineContainers {
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
  // A blank line closes every quote it does not continue (items always continue over one).
  else if (line.isBlank(at)) stack.length = matched;
  else for (const container of stack.slice(matched)) container.unsure = true;
  return { depth: matched + openedCount, reopened, contentStart: at, opened: openedCount, interrupts, opensEmptyItem };
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
type CharClass = 'space' | 'punctuation' | 'other';
const classOf = (char: string | undefined): CharClass =>
  char === undefined || /\s/.test(char) ? 'space' : PUNCTUATION.test(char) ? 'punctuation' : 'other';

/** Delimiter runs of `*`, `_` or `~` in the line that may open or close emphasis or strikethrough. */
function emphasisRunsIn(line: string, from: number): number {
  let runs = 0;
  let index = from;
  while (index < line.length) {
    const char = line[index]!;
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char !== '*' && char !== '_' && char !== '~') {
      index += 1;
      continue;
    }
    let end = index + 1;
    while (line[end] === char) end += 1;
    const before = classOf(line[index - 1]);
    const after = classOf(line[end]);
    const leftFlanking = after !== 'space' && (after !== 'punctuation' || before !== 'other');
    const rightFlanking = before !== 'space' && (before !== 'punctuation' || after !== 'other');
    // An underscore between letters (snake_case) can neither open nor close.
    const intraword = char === '_' && before === 'other' && after === 'other';
    if ((leftFlanking || rightFlanking) && !intraword) runs += 1;
    index = end;
  }
  return runs;
}

/** An opening code fence (```` ``` ```` or `~~~`, at most 3 spaces in): its character and length, or undefined. */
function openingFence(line: string, from: number): Fence | undefined {
  const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line.slice(from));
  if (match === null || (match[1]![0] === '`' && match[2]!.includes('`'))) return undefined;
  return { char: match[1]![0]!, length: match[1]!.length, depth: 0 };
}

function closesFence(line: string, from: number, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line.slice(from));
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

/** A line of only `=` or only `-` (at most 3 spaces in): under a paragraph's line it makes a setext heading. */
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

function countOf(line: string, from: number, needle: string): number {
  let count = 0;
  for (let at = line.indexOf(needle, from); at !== -1; at = line.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Columns of a GFM delimiter row (`| --- | :-: |`), or 0 when the line is not one. */
function delimiterRowColumns(line: string, from: number): number {
  const row = line.slice(from).trim();
  if (!row.includes('-') || !/^[|:\- \t]+$/.test(row)) return 0;
  const cells = row.replace(/^\|/, '').replace(/\|$/, '').split('|');
  if (!cells.every((cell) => /^[ \t]*:?-+:?[ \t]*$/.test(cell))) return 0;
  // Without a pipe, a lone `---` under text is a setext heading, not a table.
  return row.includes('|') ? cells.length : 0;
}

/** `[label]: destination "title"`: the bytes a reference to it repeats, or 0. */
function definitionBytes(line: string, from: number): number {
  let at = from;
  while (line[at] === ' ' || line[at] === '\t') at += 1;
  if (line[at] !== '[' || line[at + 1] === '^') return 0;
  const close = line.indexOf(']:', at);
  return close === -1 ? 0 : line.length - close;
}

class Maximum implements Measured {
  value = 0;
  line = 0;
  offer(value: number, line: number): void {
    if (value > this.value) {
      this.value = value;
      this.line = line;
    }
  }
}

export function measureMarkdownShape(markdown: string): MarkdownShape {
  const nestingDepth = new Maximum();
  const emphasisRuns = new Maximum();
  const labelEnds = new Maximum();
  const unclosedCodeRuns = new Maximum();
  const unclosedHtml = new Maximum();
  const tableColumns = new Maximum();
  const tableCells = new Maximum();
  const stack: Container[] = [];
  let rendered = 0;
  let containerCount = 0;
  let closingBrackets = 0;
  let footnoteCalls = 0;
  let longestDefinition = 0;
  let setextHeadings = 0;
  let fence: Fence | undefined;
  let block = { firstLine: 1, emphasis: 0, inline: [] as string[], previousContent: false };
  const endBlock = (): void => {
    const cost = measureInlineCost(block.inline.join('\n'));
    labelEnds.offer(cost.labelEnds, block.firstLine);
    unclosedCodeRuns.offer(cost.unclosedCodeRuns, block.firstLine);
    unclosedHtml.offer(cost.unclosedHtml, block.firstLine);
  };
  let table: { columns: number; rows: number; line: number } | undefined;
  const endTable = (): void => {
    if (table === undefined) return;
    const cells = table.columns * table.rows;
    tableCells.offer(cells, table.line);
    rendered += cells * HTML_BYTES_PER_TABLE_CELL;
    table = undefined;
  };

  const lines = markdown.split('\n');
  lines.forEach((line, index) => {
    const number = index + 1;
    const containers = readContainers(new LineCursor(line), stack);
    nestingDepth.offer(containers.depth, number);
    containerCount += containers.opened + containers.reopened;
    rendered += line.length * HTML_BYTES_PER_BYTE + HTML_BYTES_PER_LINE + containers.opened * HTML_BYTES_PER_CONTAINER;
    closingBrackets += countOf(line, 0, ']');
    footnoteCalls += countOf(line, 0, '[^');
    longestDefinition = Math.max(longestDefinition, definitionBytes(line, containers.contentStart));

    // A fence ends at its closing line or with the containers it was opened in.
    if (fence !== undefined && containers.depth < fence.depth) fence = undefined;
    const inFence = fence !== undefined;
    if (fence !== undefined) {
      if (closesFence(line, containers.contentStart, fence)) fence = undefined;
    } else {
      fence = openingFence(line, containers.contentStart);
      if (fence !== undefined) fence.depth = containers.depth;
    }
    const code = inFence || fence !== undefined;

    if (/^[ \t]*$/.test(line.slice(containers.contentStart)) && !containers.opensEmptyItem) {
      endTable();
      endBlock();
      block = { firstLine: number + 1, emphasis: 0, inline: [], previousContent: false };
      return;
    }
    if (containers.interrupts && block.previousContent) {
      endTable();
      endBlock();
      block = { firstLine: number, emphasis: 0, inline: [], previousContent: false };
    }
    block.emphasis += emphasisRunsIn(line, containers.contentStart);
    emphasisRuns.offer(block.emphasis, block.firstLine);
    if (!code) {
      block.inline.push(line.slice(containers.contentStart));
      if (block.previousContent && SETEXT_UNDERLINE.test(line.slice(containers.contentStart))) setextHeadings += 1;
    }

    const columns = block.previousContent ? delimiterRowColumns(line, containers.contentStart) : 0;
    if (columns > 0) {
      endTable();
      tableColumns.offer(columns, number);
      table = { columns, rows: 1, line: number - 1 };
    } else if (table !== undefined) table.rows += 1;
    block.previousContent = true;
  });
  endTable();
  endBlock();
  rendered += closingBrackets * longestDefinition * HTML_BYTES_PER_DEFINITION_BYTE + footnoteCalls * HTML_BYTES_PER_FOOTNOTE_CALL;
  return {
    nestingDepth,
    containers: containerCount,
    emphasisRuns,
    labelEnds,
    unclosedCodeRuns,
    unclosedHtml,
    setextHeadings,
    tableColumns,
    tableCells,
    renderedBytes: rendered,
  };
}
