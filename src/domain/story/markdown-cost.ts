// The markdown cost limits applied to a text: which limits it breaks, in words an agent can act
// on, and the refusal (validation_failed through ValidationFaults) that publish and edit give
// before any parser runs.
import { type MarkdownShape, measureMarkdownShape } from './markdown-shape.ts';
import { MARKDOWN_COST_LIMIT_NAMES, MARKDOWN_COST_LIMITS, type MarkdownCostLimit } from './story-limits.ts';
import { ValidationFaults } from './validation-faults.ts';

export interface CostFault {
  limit: MarkdownCostLimit;
  /** What is over the limit, where, and how to fix it. */
  fix: string;
}

const HOW_TO_FIX: Record<MarkdownCostLimit, string> = {
  nestingDepth: 'Flatten the quoting or the list.',
  containers: 'Join short quotes and list items into paragraphs.',
  emphasisRuns: 'Put code and symbols in `backticks` or split the paragraph.',
  totalEmphasisRuns: 'Put code and symbols in `backticks` or a fenced code block, or use less emphasis.',
  labelEnds: 'Escape a literal bracket as `\\]`, move code into a fenced code block, or split the paragraph.',
  unclosedCodeRuns:
    'Close each inline code span with as many backticks as opened it, escape a literal backtick as `\\``, or split the paragraph.',
  unclosedHtml: 'Close each `<!--` with `-->`, escape a literal `<` as `\\<`, or move it into a fenced code block.',
  setextHeadings: 'Write headings as `## Heading`, and leave a blank line before a `---` rule.',
  lines: 'Join short lines into paragraphs, or shorten the text.',
  codeLines: 'Shorten the code: show the lines that matter, or link to the file.',
  lazyLines: 'Start each line of a quote with `>` and indent the lines of a list item, or leave a blank line after the quote or list.',
  tableColumns: 'Split the table or turn it into a list.',
  tableCells: 'Split the table, or give every row as many cells as the header.',
  renderedBytes: 'Shorten the longest reference link or use it fewer times; shrink the tables.',
};

function fault(limit: MarkdownCostLimit, found: string): CostFault {
  const name = MARKDOWN_COST_LIMIT_NAMES[limit];
  return { limit, fix: `${found}; the ${name} limit is ${MARKDOWN_COST_LIMITS[limit]}. ${HOW_TO_FIX[limit]}` };
}

/** What each measured shape says when it is over its limit. */
const FOUND: Record<
  Exclude<MarkdownCostLimit, 'renderedBytes' | 'containers' | 'totalEmphasisRuns' | 'setextHeadings' | 'lazyLines' | 'lines' | 'codeLines'>,
  (value: number, line: number) => string
> = {
  nestingDepth: (value, line) => `Line ${line} nests ${value} block quotes or list items`,
  emphasisRuns: (value, line) => `The paragraph at line ${line} has ${value} emphasis delimiter runs (\`*\`, \`_\`, \`~\`)`,
  labelEnds: (value, line) => `The paragraph at line ${line} has ${value} closing brackets \`]\``,
  unclosedCodeRuns: (value, line) => `The paragraph at line ${line} has ${value} backtick runs that no later run of the same length closes`,
  unclosedHtml: (value, line) =>
    `The paragraph at line ${line} opens ${value} HTML comments, declarations or instructions (\`<!\`, \`<?\`) that nothing closes`,
  tableColumns: (value, line) => `The table at line ${line} has ${value} columns`,
  tableCells: (value, line) => `The table at line ${line} renders ${value} cells`,
};

/** Every cost limit `markdown` breaks; empty when it is within all of them. */
export function markdownCostFaults(markdown: string, shape: MarkdownShape = measureMarkdownShape(markdown)): CostFault[] {
  const faults: CostFault[] = [];
  for (const [limit, found] of Object.entries(FOUND) as Array<[keyof typeof FOUND, (typeof FOUND)[keyof typeof FOUND]]>) {
    const measured = shape[limit];
    if (measured.value > MARKDOWN_COST_LIMITS[limit]) faults.push(fault(limit, found(measured.value, measured.line)));
  }
  if (shape.containers > MARKDOWN_COST_LIMITS.containers) {
    faults.push(fault('containers', `It opens ${shape.containers} block quotes and list items`));
  }
  if (shape.totalEmphasisRuns > MARKDOWN_COST_LIMITS.totalEmphasisRuns) {
    faults.push(fault('totalEmphasisRuns', `It has ${shape.totalEmphasisRuns} emphasis delimiter runs (\`*\`, \`_\`, \`~\`) outside code`));
  }
  if (shape.lines > MARKDOWN_COST_LIMITS.lines) faults.push(fault('lines', `It has ${shape.lines} lines outside fenced code`));
  if (shape.codeLines > MARKDOWN_COST_LIMITS.codeLines) faults.push(fault('codeLines', `It has ${shape.codeLines} lines of fenced code`));
  if (shape.setextHeadings > MARKDOWN_COST_LIMITS.setextHeadings) {
    faults.push(fault('setextHeadings', `It has ${shape.setextHeadings} setext headings (a line of \`=\` or \`-\` right under text)`));
  }
  if (shape.lazyLines > MARKDOWN_COST_LIMITS.lazyLines) {
    faults.push(
      fault('lazyLines', `It has ${shape.lazyLines} lines that continue a quote or a list item without its marker or indentation`),
    );
  }
  if (shape.renderedBytes > MARKDOWN_COST_LIMITS.renderedBytes) {
    faults.push(fault('renderedBytes', `It would render to about ${shape.renderedBytes} bytes of HTML`));
  }
  return faults;
}

export interface CostCheckOptions {
  /** How the refusal names what was checked, e.g. "The story". */
  subject?: string;
  renameField?: (field: string) => string;
}

/** Refuses markdown over a cost limit with validation_failed naming each limit it breaks, under `markdown`. */
export function assertMarkdownCostWithinLimits(markdown: string, options: CostCheckOptions = {}): void {
  const faults = new ValidationFaults(options.renameField);
  for (const { fix } of markdownCostFaults(markdown)) faults.add('markdown', fix);
  faults.throwIfAny(options.subject ?? 'The story');
}
