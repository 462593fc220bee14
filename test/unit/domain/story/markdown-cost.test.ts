// The markdown cost pre-scan and its limits: what it measures (never less than the parser will
// build), that each limit refuses one past it with validation_failed naming the limit, and that
// the issue's 64 KiB hostile shapes are refused before any parser runs.
import { describe, expect, it } from 'vitest';
import { markdownCostFaults } from '../../../../src/domain/story/markdown-cost.ts';
import { measureMarkdownShape } from '../../../../src/domain/story/markdown-shape.ts';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { MARKDOWN_COST_LIMITS } from '../../../../src/domain/story/story-limits.ts';
import { storyMarkdownFromParts } from '../../../../src/domain/story/story-parts.ts';
import { HOSTILE_CASES, storyWithNarrative, WORST_ACCEPTED } from '../../../helpers/hostile-markdown.ts';
import { faultFields } from '../story-fixtures.ts';

const shape = (markdown: string) => measureMarkdownShape(markdown);
const limitsBroken = (markdown: string) => markdownCostFaults(markdown).map((fault) => fault.limit);

describe('the pre-scan measures container nesting', () => {
  it.each([
    ['plain text', 'just words', 0],
    ['one quote', '> a', 1],
    ['quotes written together', '>>> a', 3],
    ['quotes and list items on one line', '> - > 1. a', 4],
    ['a list nested by indentation', '- a\n  - b\n    - c', 3],
    ['a quote continued on the next line, nested further', '> a\n> > b', 2],
    ['a lazy line keeps its containers: the next marker nests inside them', '- - a\nlazy\n  - b', 2],
  ])('%s', (_name, markdown, depth) => {
    expect(shape(markdown).nestingDepth.value).toBe(depth);
  });

  it('a footnote definition holds blocks like a list item: definitions indented inside each other nest', () => {
    expect(shape('[^a]: x\n    [^b]: y\n        > z').nestingDepth).toEqual({ value: 3, line: 3 });
    expect(shape('[^a]: x\n\n[^b]: y').containers).toBe(2);
    expect(shape('[^a] is a call, not a definition').containers).toBe(0);
  });

  it('names the line of the deepest nesting', () => {
    expect(shape('a\n\n> > b\n\nc').nestingDepth).toEqual({ value: 2, line: 3 });
  });

  it('counts every container the text opens, not only the deepest line', () => {
    expect(shape('> a\n\n> b\n\n- c\n- d\n  - e').containers).toBe(5);
  });

  it('a quote kept open over a line it did not continue counts again when it is matched', () => {
    expect(shape('> a\n# h\n> b\n# h\n> c').containers).toBe(3);
  });

  it('indentation alone (an indented code block) opens nothing', () => {
    expect(shape(`${' '.repeat(40)}- not a list`).nestingDepth.value).toBe(0);
  });
});

describe('the pre-scan counts emphasis delimiter runs per paragraph', () => {
  it.each([
    ['emphasis and strong', '*a* **b** _c_ ~~d~~', 8],
    ['underscores inside words (snake_case) cannot open or close', 'a_b_c and d__e', 0],
    ['an escaped star is text', '\\*a\\*', 0],
    ['a star between spaces is text', 'a * b', 0],
  ])('%s', (_name, markdown, runs) => {
    expect(shape(markdown).emphasisRuns.value).toBe(runs);
  });

  it('a blank line starts a new paragraph', () => {
    expect(shape('*a*\n*b*\n\n*c*').emphasisRuns).toEqual({ value: 4, line: 1 });
  });

  it('counts them in the whole text too, across paragraphs, and not in fenced code', () => {
    expect(shape('*a*\n\n**b**\n\n```\n*c* *d*\n```\n\n_e_').totalEmphasisRuns).toBe(6);
  });
});

describe('the pre-scan counts lines', () => {
  it.each([
    ['no text', '', 1],
    ['one line with no line ending', 'a', 1],
    ['a final line ending starts no line', 'a\n', 1],
    ['blank lines count', 'a\n\n\nb\n', 4],
  ])('%s', (_name, markdown, lines) => {
    expect(shape(markdown).lines).toBe(lines);
  });

  it('counts the lines of fenced code apart, the fences included', () => {
    const measured = shape('a\n\n```sh\n1\n2\n```\nb\n~~~\n3\n~~~');
    expect(measured.codeLines).toBe(7);
    expect(measured.lines).toBe(3);
  });
});

describe('the pre-scan measures what the inline text of a paragraph costs', () => {
  it('counts closing brackets `]` per paragraph, escaped ones and fenced code aside', () => {
    expect(shape('[a](b) [c](d\n\n[e](f)').labelEnds).toEqual({ value: 2, line: 1 });
    expect(shape('a \\] b \\\\]').labelEnds.value).toBe(1);
    expect(shape('text\n\n```json\n[[1], [2]]\n```\n\n[x]').labelEnds).toEqual({ value: 1, line: 7 });
  });

  it.each([
    ['a closed code span', '`a` and ``b``', 0],
    ['a stray backtick', 'it is `a', 1],
    ['an opener of two with only shorter runs after it', '``a`', 2],
    ['an escaped backtick opens one fewer, and nothing closes that', '\\```\n\\```', 2],
    ['backticks inside a fenced code block', '```sh\necho `date\n```', 0],
    ['a tilde fence holds backticks too', '~~~\n`\n~~~', 0],
  ])('counts backtick runs nothing closes: %s', (_name, markdown, runs) => {
    expect(shape(markdown).unclosedCodeRuns.value).toBe(runs);
  });

  it.each([
    ['a closed comment', 'a <!-- b --> c', 0],
    ['an unclosed comment', 'a <!-- b', 1],
    ['instructions, one closed', 'a <? b ?> <? c', 1],
    ['an unclosed CDATA section', 'a <![CDATA[ b', 1],
    ['an escaped `<`', 'a \\<!-- b', 0],
  ])('counts `<!` and `<?` nothing closes: %s', (_name, markdown, count) => {
    expect(shape(markdown).unclosedHtml.value).toBe(count);
  });

  it('a list item or a quote that interrupts a paragraph starts a new one; an item numbered 2 or an empty one does not', () => {
    expect(shape('a ]\n- b ]\n> c ] ]').labelEnds).toEqual({ value: 2, line: 3 });
    expect(shape('a ]\n2. b ]').labelEnds).toEqual({ value: 2, line: 1 });
    expect(shape('a ]\n*\n]\n2.\n]').labelEnds).toEqual({ value: 3, line: 1 });
    expect(shape('*a\n2.\n*a').emphasisRuns.value).toBe(2);
  });

  it.each([
    ['a line continuing a quote without `>`', '> a\nlazy\n> b', 1],
    ['a line continuing an item without indentation', '- c\n  indented\nlazy', 1],
    ['marked and indented lines', '> a\n> b\n\n- c\n  d', 0],
    ['text after a blank line, which ended the paragraph', '- c\n\nplain', 0],
  ])('counts lines that may continue a paragraph lazily: %s', (_name, markdown, lines) => {
    expect(shape(markdown).lazyLines).toBe(lines);
  });

  it('counts setext headings, and not a rule after a blank line', () => {
    expect(shape('Title\n===\n\ntext\n---\n\n---\n').setextHeadings).toBe(2);
  });
});

describe('the pre-scan measures GFM tables as rendered', () => {
  it('counts columns from the delimiter row and pads short rows to them', () => {
    const measured = shape('text\n\n| a | b | c |\n|---|:-:|--:|\n| 1 |\n| 2 | 3 |');
    expect(measured.tableColumns).toEqual({ value: 3, line: 4 });
    expect(measured.tableCells).toEqual({ value: 9, line: 3 });
  });

  it('a `---` under text without a pipe is a heading, not a table', () => {
    expect(shape('Title\n---\nmore').tableColumns.value).toBe(0);
  });

  it('a table ends at a blank line', () => {
    expect(shape('| a |\n|---|\n| 1 |\n\n| b |').tableCells.value).toBe(2);
  });
});

describe('the pre-scan estimates the rendered size', () => {
  it('a reference used many times costs its definition each time', () => {
    const definition = `[r]: https://example.com/${'a'.repeat(1000)}`;
    const once = shape(`[r]\n\n${definition}`).renderedBytes;
    const often = shape(`${'[r] '.repeat(100)}\n\n${definition}`).renderedBytes;
    expect(often - once).toBeGreaterThan(99 * 1000);
  });

  it('padded table cells count even when the source is small', () => {
    expect(shape(`${'|a'.repeat(2000)}|\n${'|-'.repeat(2000)}|\n${'|b\n'.repeat(8000)}`).renderedBytes).toBeGreaterThan(100_000_000);
  });
});

describe('each limit refuses one past it and accepts it exactly', () => {
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
  const table = (columns: number, rows: number) => `${'|a'.repeat(columns)}|\n${'|-'.repeat(columns)}|\n${'|b|\n'.repeat(rows)}`;
  it.each([
    ['nestingDepth', (n: number) => `${'> '.repeat(n)}x`, nestingDepth],
    ['containers', (n: number) => '> x\n\n'.repeat(n), containers],
    ['emphasisRuns', (n: number) => '*a'.repeat(n), emphasisRuns],
    [
      'totalEmphasisRuns',
      (n: number) => Array.from({ length: Math.ceil(n / 64) }, (_, at) => '*a'.repeat(Math.min(64, n - at * 64))).join('\n\n'),
      totalEmphasisRuns,
    ],
    ['labelEnds', (n: number) => '[a]('.repeat(n), labelEnds],
    ['unclosedCodeRuns', (n: number) => '\\``'.repeat(n), unclosedCodeRuns],
    ['unclosedHtml', (n: number) => 'x <?'.repeat(n), unclosedHtml],
    ['setextHeadings', (n: number) => 'x\n=\n\n'.repeat(n), setextHeadings],
    ['lazyLines', (n: number) => `> a\n${'&\n'.repeat(n)}`, lazyLines],
    ['lines', (n: number) => 'a\n'.repeat(n), lines],
    ['codeLines', (n: number) => `\`\`\`\n${'a\n'.repeat(n - 2)}\`\`\``, codeLines],
    ['tableColumns', (n: number) => table(n, 1), tableColumns],
    ['tableCells', (n: number) => table(10, n / 10 - 1), tableCells],
  ] as const)('%s', (limit, make, at) => {
    expect(limitsBroken(make(at))).toEqual([]);
    expect(limitsBroken(make(at + (limit === 'emphasisRuns' || limit === 'tableCells' ? 10 : 1)))).toEqual([limit]);
  });

  it('renderedBytes', () => {
    const definition = `[r]: https://example.com/${'a'.repeat(1000)}`;
    expect(limitsBroken(`${'[r] '.repeat(200)}\n\n${definition}`)).toEqual([]);
    expect(limitsBroken(`${`${'[r] '.repeat(200)}\n\n`.repeat(5)}${definition}`)).toEqual(['renderedBytes']);
  });
});

describe('publishing hostile markdown', () => {
  it.each(HOSTILE_CASES.map((hostile) => [hostile.name, hostile] as const))(
    '%s is refused with validation_failed naming the limit, in well under a second',
    (_name, hostile) => {
      const story = storyWithNarrative('Hostile', hostile.narrative);
      expect(Buffer.byteLength(story)).toBeLessThanOrEqual(64 * 1024);
      const started = performance.now();
      const fields = faultFields(() => parseStory(story));
      // Only the pre-scan ran: a parser takes seconds to minutes on these (BENCHMARKS.md).
      expect(performance.now() - started).toBeLessThan(1000);
      expect(Object.keys(fields)).toEqual(['markdown']);
      expect(fields.markdown).toContain(`the ${hostile.limit} limit is`);
    },
  );

  it('a refusal names every limit broken, with the line to look at', () => {
    const fields = faultFields(() => parseStory(storyWithNarrative('Two faults', `${'> '.repeat(40)}x\n\n${'*a'.repeat(400)}`)));
    expect(fields.markdown).toMatch(/Line \d+ nests 40 block quotes or list items; the nesting depth limit is 16\./);
    expect(fields.markdown).toMatch(
      /The paragraph at line \d+ has 400 emphasis delimiter runs .*; the emphasis delimiter runs limit is 256\./,
    );
  });

  it('parts are checked one by one and the refusal names the part', () => {
    const parts = {
      title: 'T',
      date: '2026-10-14',
      narrative: 'N',
      tags: ['a'],
      type: 'fail',
      what_i_tried: '>'.repeat(100),
      what_i_need: 'y',
    };
    const fields = faultFields(() => storyMarkdownFromParts(parts));
    expect(Object.keys(fields)).toEqual(['what_i_tried']);
    expect(fields.what_i_tried).toContain('the nesting depth limit is 16');
  });

  // A 64 KiB story of one-character paragraphs takes a few seconds to parse on a loaded machine.
  it.each(WORST_ACCEPTED.map((accepted) => [accepted.name, accepted] as const))(
    'the worst accepted shape (%s) is within every limit',
    { timeout: 60_000 },
    (_name, accepted) => {
      expect(limitsBroken(accepted.narrative)).toEqual([]);
      expect(() => parseStory(storyWithNarrative('Worst accepted', accepted.narrative))).not.toThrow();
    },
  );
});
