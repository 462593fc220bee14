// Hostile markdown for the cost tests and the bench: the worst shapes the issue names, each
// filling a story's 64 KiB, and the worst shapes still accepted (each at its limit, repeated up to
// the whole text's limits, then prose).
import { markdownCostFaults } from '../../src/domain/story/markdown-cost.ts';
import { MARKDOWN_COST_LIMITS } from '../../src/domain/story/story-limits.ts';
import { storyTitled } from './stories.ts';

/** Room left for the narrative in a story of at most 64 KiB. */
export const NARRATIVE_BYTES = 60 * 1024;

const fill = (unit: string, bytes = NARRATIVE_BYTES): string => unit.repeat(Math.floor(bytes / unit.length));

/** Lines each nested one level deeper than the one before, by indentation alone. */
function indentedLadder(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let depth = 0; size < bytes; depth += 1) {
    const line = `${'  '.repeat(depth)}- x`;
    if (size + line.length + 1 > bytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** 2,000 header cells, then short rows that a renderer pads to the header's width. */
function wideTable(columns: number, rows: number): string {
  return `${'|a'.repeat(columns)}|\n${'|-'.repeat(columns)}|\n${'|b\n'.repeat(rows)}`;
}

/** One long reference definition, referenced thousands of times. */
function repeatedReference(bytes: number): string {
  const definition = `[r]: https://example.com/${'a'.repeat(bytes / 2)}`;
  return `${fill('[r] ', bytes / 2 - 64)}\n\n${definition}`;
}

export interface HostileCase {
  name: string;
  /** The narrative of a story (paste it into storyTitled's body). */
  narrative: string;
  /** The limit that refuses it, as named in the refusal. */
  limit: string;
}

/** The issue's hostile shapes, each filling ~60 KiB of narrative; every one is over a limit. */
export const HOSTILE_CASES: HostileCase[] = [
  { name: '64 KiB of `>`', narrative: `${fill('>')} x`, limit: 'nesting depth' },
  { name: '`> ` nesting', narrative: `${fill('> ')}x`, limit: 'nesting depth' },
  { name: '`- ` nesting', narrative: `${fill('- ')}x`, limit: 'nesting depth' },
  { name: 'a list nested by indentation', narrative: indentedLadder(NARRATIVE_BYTES), limit: 'nesting depth' },
  { name: '`*_` runs', narrative: fill('*_'), limit: 'emphasis delimiter runs' },
  { name: '`*a` runs', narrative: fill('*a'), limit: 'emphasis delimiter runs' },
  { name: '`~a` runs', narrative: fill('~a'), limit: 'emphasis delimiter runs' },
  { name: '`[a](` openings', narrative: fill('[a]('), limit: 'closing brackets' },
  { name: '`]` after `]`', narrative: fill(']'), limit: 'closing brackets' },
  { name: 'an escaped backtick fence on every line', narrative: fill('\\```\n'), limit: 'unclosed backtick runs' },
  { name: '`x <?` runs', narrative: fill('x <?'), limit: 'unclosed HTML comments and declarations' },
  { name: '`x <!--` runs', narrative: fill('x <!--'), limit: 'unclosed HTML comments and declarations' },
  { name: 'setext headings', narrative: fill('x\n=\n\n'), limit: 'setext headings' },
  { name: 'one-character paragraphs', narrative: fill('x\n\n'), limit: 'lines' },
  { name: 'a fenced code block of one-character lines', narrative: `\`\`\`\n${fill('x\n')}\`\`\``, limit: 'fenced code lines' },
  { name: 'paragraphs of 256 `*_` runs', narrative: fill(`${'*_'.repeat(128)}\n\n`), limit: 'total emphasis delimiter runs' },
  { name: 'a quote continued by lazy lines', narrative: `> a\n${fill('&> a\n')}`, limit: 'lazy continuation lines' },
  { name: 'a 2,000-column table with 8,000 short rows', narrative: wideTable(2_000, 8_000), limit: 'table columns' },
  { name: 'a 4,000-column table', narrative: wideTable(4_000, 2_000), limit: 'table columns' },
  { name: 'a 30 KB reference used 7,000 times', narrative: repeatedReference(NARRATIVE_BYTES), limit: 'rendered size' },
];

const {
  nestingDepth,
  containers,
  emphasisRuns,
  totalEmphasisRuns,
  labelEnds,
  unclosedCodeRuns,
  unclosedHtml,
  setextHeadings,
  lazyLines,
  lines,
  codeLines,
  tableColumns,
  tableCells,
} = MARKDOWN_COST_LIMITS;

/** `count` blocks, each `prefix` then text, separated by blank lines, filling the narrative. */
function blocks(count: number, prefix: string): string {
  const text = 'y'.repeat(Math.floor(NARRATIVE_BYTES / count) - prefix.length - 2);
  return Array.from({ length: count }, () => `${prefix}${text}`).join('\n\n');
}

/** Containers left for the narrative: the rest of the story has a few list items of its own. */
const ROOM = containers - 64;

/** Setext headings left for the narrative: the front matter's closing `---` under a line counts as one. */
const SETEXT_ROOM = setextHeadings - 16;

/** Lines left for the narrative: the rest of the story has a few dozen. */
const LINE_ROOM = lines - 96;

/** Fenced code lines left for the narrative: the story's own steps are a few dozen. */
const CODE_LINE_ROOM = codeLines - 64;

/** Paragraphs of `emphasisRuns` runs each (`unit` repeated), up to the whole text's limit, then prose to fill the narrative. */
function emphasisParagraphs(unit: string): string {
  const paragraph = `${unit.repeat(emphasisRuns / 2)}\n\n`;
  const runs = paragraph.repeat(totalEmphasisRuns / emphasisRuns - 1);
  return `${runs}${fill('word ', NARRATIVE_BYTES - runs.length)}`;
}

/** `unit` (one line or more) repeated up to the line limit, then prose on one line to fill the narrative. */
function upToLineLimit(head: string, unit: string): string {
  const unitLines = unit.split('\n').length - 1;
  const body = `${head}${unit.repeat(Math.floor((LINE_ROOM - (head.split('\n').length - 1)) / unitLines))}`;
  return `${body}${fill('word ', NARRATIVE_BYTES - body.length)}`;
}

/** The worst accepted shapes: each at its limit, repeated to fill the narrative. */
export const WORST_ACCEPTED: Array<{ name: string; narrative: string }> = [
  { name: `\`> \` ${nestingDepth} deep, ${ROOM} in all`, narrative: blocks(ROOM / nestingDepth, '> '.repeat(nestingDepth)) },
  { name: `\`- \` ${nestingDepth} deep, ${ROOM} in all`, narrative: blocks(ROOM / nestingDepth, '- '.repeat(nestingDepth)) },
  { name: `${ROOM} block quotes`, narrative: blocks(ROOM, '> ') },
  { name: `${ROOM} list items`, narrative: blocks(ROOM, '- ').replaceAll('\n\n', '\n') },
  { name: `paragraphs of ${emphasisRuns} \`*_\` runs, ${totalEmphasisRuns - emphasisRuns} in all`, narrative: emphasisParagraphs('*_') },
  { name: `paragraphs of ${emphasisRuns} \`~a\` runs, ${totalEmphasisRuns - emphasisRuns} in all`, narrative: emphasisParagraphs('~a~a') },
  { name: `paragraphs of ${labelEnds} \`[a](\``, narrative: fill(`${'[a]('.repeat(labelEnds)}\n\n`) },
  { name: `paragraphs of ${labelEnds} \`]\``, narrative: fill(`${']'.repeat(labelEnds)}\n\n`) },
  {
    name: `one paragraph opening ${unclosedCodeRuns} code spans nothing closes`,
    narrative: `${'\\```'.repeat(unclosedCodeRuns)}${fill('word ', NARRATIVE_BYTES - 4 * unclosedCodeRuns)}`,
  },
  {
    name: `one paragraph opening ${unclosedHtml} \`<?\` nothing closes`,
    narrative: `${'x <?'.repeat(unclosedHtml)}${fill('word ', NARRATIVE_BYTES - 4 * unclosedHtml)}`,
  },
  {
    name: `${SETEXT_ROOM} setext headings among one-character paragraphs, ${LINE_ROOM} lines`,
    narrative: upToLineLimit('x\n=\n\n'.repeat(SETEXT_ROOM), 'x\n\n'),
  },
  {
    name: `five ${tableColumns}-column tables of ${tableCells} cells`,
    narrative: `${wideTable(tableColumns, tableCells / tableColumns - 1)}\n`.repeat(5),
  },
  {
    name: `a quote continued by ${lazyLines - 64} lazy lines`,
    narrative: `> a\n${'&> a\n'.repeat(lazyLines - 64)}${fill('word ', NARRATIVE_BYTES - 5 * lazyLines)}`,
  },
  { name: `one-character paragraphs, ${LINE_ROOM} lines`, narrative: upToLineLimit('', 'x\n\n') },
  { name: `one-character headings, ${LINE_ROOM} lines`, narrative: upToLineLimit('', '# x\n') },
  {
    name: `a fenced code block of ${CODE_LINE_ROOM} lines`,
    narrative: `\`\`\`\n${'xx\n'.repeat(CODE_LINE_ROOM - 2)}\`\`\`\n\n${fill('word ', NARRATIVE_BYTES - 3 * CODE_LINE_ROOM)}`,
  },
];

/** A valid story whose narrative is `narrative` (after the usual first paragraph). */
export function storyWithNarrative(title: string, narrative: string): string {
  const story = storyTitled(title);
  const at = story.indexOf('\n## ');
  return `${story.slice(0, at)}\n\n${narrative}\n${story.slice(at)}`;
}

/**
 * The costliest text check_capability accepts, as measured (docs/markdown-cost.md): four paragraphs
 * each opening 32 code spans nothing closes, 240 KB in all, ~1.7 s to scan.
 */
export function costliestAcceptedScan(): string {
  const paragraph = WORST_ACCEPTED.find((shape) => shape.name.startsWith('one paragraph opening'))?.narrative ?? '';
  const text = Array.from({ length: 4 }, () => paragraph).join('\n\n');
  const faults = markdownCostFaults(text).filter((fault) => fault.limit !== 'renderedBytes');
  if (paragraph === '' || faults.length > 0)
    throw new Error(`the costliest accepted scan is not accepted: ${faults.map((fault) => fault.limit)}`);
  return text;
}
