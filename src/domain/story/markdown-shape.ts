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
//   for each one, so 6,000 of them took 16 s; and lazy lines (text continuing a quote's or an
//   item's paragraph without its marker), for each of which it looks back over the container's;
// - lines (in fenced code and outside it) and emphasis delimiter runs in the whole text:
//   micromark's cost per block, per line and per run;
// - GFM tables: columns, and cells as rendered (a short row is padded to the header's width);
// - an estimate of the rendered HTML's size (escaping, nesting, table padding, reference links
//   repeating a long definition, footnote back-references).
// It errs on the high side (a `>` or `- ` inside a code block counts; a lazy line keeps its
// containers open) so that no input measures lower than what the parser will actually build.
// One pass over the characters: O(length) time, O(nesting) memory.
import { measureInlineCost } from './inline-scan.ts';
import { type Container, LineCursor, readContainers } from './markdown-containers.ts';
import {
  closesFence,
  countOf,
  definitionBytes,
  delimiterRowColumns,
  emphasisRunsIn,
  type Fence,
  openingFence,
  SETEXT_UNDERLINE,
} from './markdown-line-shapes.ts';

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
  /** Emphasis delimiter runs in the whole text outside fenced code. */
  totalEmphasisRuns: number;
  labelEnds: Measured;
  unclosedCodeRuns: Measured;
  unclosedHtml: Measured;
  setextHeadings: number;
  lazyLines: number;
  /** Lines outside fenced code (blank ones included; a final line ending starts none). */
  lines: number;
  /** Lines of fenced code blocks, their fences included. */
  codeLines: number;
  tableColumns: Measured;
  tableCells: Measured;
  renderedBytes: number;
}

// Generous per-byte and per-structure costs of the HTML (measured with micromark + GFM; the fuzz
// test checks the estimate never falls below a real render).
const HTML_BYTES_PER_BYTE = 10;
const HTML_BYTES_PER_LINE = 16;
const HTML_BYTES_PER_CONTAINER = 40;
const HTML_BYTES_PER_TABLE_CELL = 16;
const HTML_BYTES_PER_FOOTNOTE_CALL = 400;
/** A reference's href and title are percent- or entity-escaped: up to 6 bytes per source byte. */
const HTML_BYTES_PER_DEFINITION_BYTE = 6;

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
  let lazyLines = 0;
  let totalEmphasisRuns = 0;
  let codeLines = 0;
  let afterBlank = true;
  let fence: Fence | undefined;
  let table: { columns: number; rows: number; line: number } | undefined;
  const endTable = (): void => {
    if (table === undefined) return;
    const cells = table.columns * table.rows;
    tableCells.offer(cells, table.line);
    rendered += cells * HTML_BYTES_PER_TABLE_CELL;
    table = undefined;
  };
  let block = { firstLine: 1, emphasis: 0, inline: [] as string[], previousContent: false };
  /** Ends the block (and any table in it), measuring its inline text, and starts one at `firstLine`. */
  const startBlock = (firstLine: number): void => {
    endTable();
    const cost = measureInlineCost(block.inline.join('\n'));
    labelEnds.offer(cost.labelEnds, block.firstLine);
    unclosedCodeRuns.offer(cost.unclosedCodeRuns, block.firstLine);
    unclosedHtml.offer(cost.unclosedHtml, block.firstLine);
    block = { firstLine, emphasis: 0, inline: [], previousContent: false };
  };

  const lines = markdown.split('\n');
  lines.forEach((line, index) => {
    const number = index + 1;
    const containers = readContainers(new LineCursor(line), stack, afterBlank);
    nestingDepth.offer(containers.depth, number);
    containerCount += containers.opened + containers.reopened;
    if (containers.lazy) lazyLines += 1;
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
    if (code) codeLines += 1;

    const content = line.slice(containers.contentStart);
    afterBlank = /^[ \t]*$/.test(content) && !containers.opensEmptyItem;
    if (afterBlank) {
      startBlock(number + 1);
      return;
    }
    if (containers.interrupts && block.previousContent) startBlock(number);
    const runs = emphasisRunsIn(line, containers.contentStart);
    block.emphasis += runs;
    emphasisRuns.offer(block.emphasis, block.firstLine);
    if (!code) {
      totalEmphasisRuns += runs;
      block.inline.push(content);
      if (block.previousContent && SETEXT_UNDERLINE.test(content)) setextHeadings += 1;
    }

    const columns = block.previousContent ? delimiterRowColumns(line, containers.contentStart) : 0;
    if (columns > 0) {
      endTable();
      tableColumns.offer(columns, number);
      table = { columns, rows: 1, line: number - 1 };
    } else if (table !== undefined) table.rows += 1;
    block.previousContent = true;
  });
  startBlock(lines.length + 1);
  rendered += closingBrackets * longestDefinition * HTML_BYTES_PER_DEFINITION_BYTE + footnoteCalls * HTML_BYTES_PER_FOOTNOTE_CALL;
  return {
    nestingDepth,
    containers: containerCount,
    emphasisRuns,
    totalEmphasisRuns,
    labelEnds,
    unclosedCodeRuns,
    unclosedHtml,
    setextHeadings,
    lazyLines,
    lines: (markdown.endsWith('\n') ? lines.length - 1 : lines.length) - codeLines,
    codeLines,
    tableColumns,
    tableCells,
    renderedBytes: rendered,
  };
}
