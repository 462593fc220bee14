import { payloadTooLarge } from '../errors.ts';

/** Largest story markdown accepted, in UTF-8 bytes (64 KiB). */
export const MAX_STORY_MARKDOWN_BYTES = 64 * 1024;
/** Longest title accepted, in Unicode code points (so an emoji counts once). */
export const MAX_TITLE_CHARS = 140;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function titleLength(title: string): number {
  return [...title.normalize('NFC')].length;
}

/** Refuses oversized markdown before any parsing work is spent on it. */
export function assertMarkdownWithinLimit(markdown: string): void {
  const bytes = utf8Bytes(markdown);
  if (bytes > MAX_STORY_MARKDOWN_BYTES) {
    throw payloadTooLarge(
      `The story is ${bytes} bytes; the limit is ${MAX_STORY_MARKDOWN_BYTES} bytes (64 KiB) of UTF-8 markdown. Shorten the narrative or sections and publish again.`,
      { field: 'markdown', bytes, limit: MAX_STORY_MARKDOWN_BYTES },
    );
  }
}

/** Refuses an over-long title (trimmed, as it would be stored). */
export function assertTitleWithinLimit(title: string): void {
  const chars = titleLength(title.trim());
  if (chars > MAX_TITLE_CHARS) {
    throw payloadTooLarge(
      `The title is ${chars} characters; the limit is ${MAX_TITLE_CHARS}. Shorten the title (front matter \`title\` and the \`# \` heading) and publish again.`,
      { field: 'title', chars, limit: MAX_TITLE_CHARS },
    );
  }
}

/**
 * What one story's markdown may cost to parse and render (measured by markdown-shape.ts before
 * any parser runs). Each is far above what a story needs and low enough that a 64 KiB story at
 * the limit parses and renders in about the time plain prose of that size does (BENCHMARKS.md,
 * "markdown cost"). The parsers themselves take no such settings.
 */
export const MARKDOWN_COST_LIMITS = {
  /** Block quotes and list items open on one line: past ~100 micromark's cost grows with its square. */
  nestingDepth: 16,
  /** Block quotes and list items in the whole story: each one costs micromark work across the whole text. */
  containers: 1024,
  /** `*`, `_`, `~` runs that may open or close, per paragraph: pairing them is quadratic in micromark. */
  emphasisRuns: 256,
  /**
   * The same runs in the whole text outside fenced code: each costs micromark ~50 µs and ~4 KB
   * however the paragraphs are cut (64 KiB of `*_` took 1.7 s and 190 MB to scan).
   */
  totalEmphasisRuns: 4096,
  /**
   * `]` per paragraph outside fenced code: each scans back over the paragraph for a `[`; this also
   * bounds `](`, each unclosed one scanned to the paragraph's end.
   */
  labelEnds: 256,
  /** Backtick runs per paragraph that no later run of their length closes: each is scanned to the paragraph's end. */
  unclosedCodeRuns: 32,
  /** `<!` and `<?` per paragraph that nothing closes: each is scanned to the paragraph's end. */
  unclosedHtml: 32,
  /** Setext headings (a line of `=` or `-` under text) in the whole story: micromark re-reads the document for each. */
  setextHeadings: 256,
  /**
   * Lines continuing a quote's or a list item's paragraph without its marker, in the whole story:
   * micromark looks back over the container's events for each.
   */
  lazyLines: 2048,
  /**
   * Lines outside fenced code in the whole text: each block micromark meets gets a tokenizer of
   * its own, so 64 KiB of one-character paragraphs (21,000 of them) took 4.4 s and 480 MB to
   * scan, and one-line headings cost more. A story of prose has a few hundred lines.
   */
  lines: 4096,
  /**
   * Lines of fenced code in the whole text, fences included: a code line costs micromark less than
   * a paragraph, and a script pasted whole may be long (30,000 one-character lines took 2.3 s to
   * scan as a story).
   */
  codeLines: 16_384,
  /** GFM table columns: a real table is read on a screen. */
  tableColumns: 64,
  /** GFM table cells as rendered, short rows padded to the header's width. */
  tableCells: 20_000,
  /** The rendered HTML's estimated size: a 64 KiB story of prose renders to ~80 KiB. */
  renderedBytes: 2 * 1024 * 1024,
} as const;

export type MarkdownCostLimit = keyof typeof MARKDOWN_COST_LIMITS;

/** The limit's name in refusals and notes, e.g. "nesting depth". */
export const MARKDOWN_COST_LIMIT_NAMES: Record<MarkdownCostLimit, string> = {
  nestingDepth: 'nesting depth',
  containers: 'block quotes and list items',
  emphasisRuns: 'emphasis delimiter runs',
  totalEmphasisRuns: 'total emphasis delimiter runs',
  labelEnds: 'closing brackets',
  unclosedCodeRuns: 'unclosed backtick runs',
  unclosedHtml: 'unclosed HTML comments and declarations',
  setextHeadings: 'setext headings',
  lazyLines: 'lazy continuation lines',
  lines: 'lines',
  codeLines: 'fenced code lines',
  tableColumns: 'table columns',
  tableCells: 'table cells',
  renderedBytes: 'rendered size',
};

/**
 * Time budgets for parsing a story (publish, edit: the whole validation, several parses) and
 * rendering its body (pages), wall clock on the offload worker (src/offload/offload.ts), counted
 * from when the task starts (the worker's own start included, on its first task). The slowest
 * texts within the cost limits take about 2 s to validate on a quiet 2-core machine (64 KiB of
 * one-character paragraphs took up to ~7 s on a loaded one before the line limit refused them);
 * the budgets leave room for a loaded machine and are the backstop for a shape the pre-scan does
 * not know.
 */
export const MARKDOWN_PARSE_BUDGET_MS = 20_000;
export const MARKDOWN_RENDER_BUDGET_MS = 10_000;
