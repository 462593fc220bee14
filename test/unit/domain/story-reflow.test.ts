// Property: any valid story, re-flowed the ways people re-flow text (labels on their own line,
// as the next sentence or as a new paragraph; steps numbered, bulleted or plain; labels in bold;
// headings in another case; CRLF, a byte-order mark, trailing spaces), parses to the same parts:
// the same front matter, narrative and sections, and under each label the same words.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsInOrder } from '../../../src/domain/story/label-order.ts';
import { parseStory } from '../../../src/domain/story/parse-story.ts';
import { STEP_LABELS } from '../../../src/domain/story/read-only-steps.ts';
import { afterLabel, comparable, type LabelPosition, readSectionText } from '../../../src/domain/story/section-labels.ts';
import type { ParsedStory } from '../../../src/domain/story/story-types.ts';

const CHECK = ['Applies if:', 'Has the problem:', "Doesn't have it:"] as const;
const REPRODUCE = ['Prerequisites:', 'Your agent will need from you:', 'Steps:', 'Verify:'] as const;

const word = fc.constantFrom(
  'table',
  'index',
  'cache',
  'query',
  'row',
  'file',
  'log',
  'port',
  'token',
  'queue',
  'build',
  'page',
  'user',
  'date',
);
const sentence = fc.array(word, { minLength: 2, maxLength: 5 }).map((words) => `${words.join(' ')}.`);
const sentences = fc.array(sentence, { minLength: 1, maxLength: 4 });

const storyContent = fc.record({
  type: fc.constantFrom('success', 'fail'),
  check: fc.option(fc.record({ applies: sentence, steps: sentences, hasProblem: sentence, doesnt: sentence }), { nil: undefined }),
  reproduce: fc.record({ prerequisites: sentence, needs: sentence, steps: sentences, verify: sentence }),
  tried: fc.array(
    fc.tuple(sentence, sentence).map(([did, happened]) => `${did} — ${happened}`),
    { minLength: 1, maxLength: 4 },
  ),
  need: sentence,
});
type StoryContent = typeof storyContent extends fc.Arbitrary<infer T> ? T : never;

const JOINS = ['\n', ' ', '\n\n'] as const;
const MARKERS = ['1. ', '1) ', '- ', '* ', '+ ', ''] as const;

const layout = fc.record({
  joins: fc.array(fc.constantFrom(...JOINS), { minLength: 8, maxLength: 8 }),
  marker: fc.constantFrom(...MARKERS),
  stepsGap: fc.constantFrom('\n', '\n\n'),
  checkStepLabel: fc.constantFrom('none', 'own line', 'inline'),
  reproduceStepsInline: fc.boolean(),
  bold: fc.boolean(),
  heading: fc.constantFrom(
    (text: string) => text,
    (text: string) => text.toLowerCase(),
    (text: string) => ` ${text.toUpperCase().replace(' ', '   ')}:`,
  ),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  trailingSpaces: fc.boolean(),
});
type Layout = typeof layout extends fc.Arbitrary<infer T> ? T : never;

/** Writes one labelled section: each label joined to what precedes it the way the layout says. */
function labelled(parts: Array<{ label: string; text: string; steps?: string[]; stepsInline?: boolean }>, style: Layout): string {
  let out = '';
  parts.forEach(({ label, text, steps, stepsInline }, index) => {
    const shown = style.bold ? `**${label}**` : label;
    const join = index === 0 ? '' : (style.joins[index] ?? '\n');
    out += `${join}${shown}${text === '' ? '' : ` ${text}`}`;
    if (steps === undefined) return;
    const onLines = stepsInline === true ? steps.slice(1) : steps;
    if (stepsInline === true) out += ` ${steps[0]}`;
    onLines.forEach((step, number) => {
      const marker = style.marker.replace('1', String(number + 1));
      out += `${number === 0 ? style.stepsGap : '\n'}${marker}${step}`;
    });
  });
  return out;
}

function checkSection(check: NonNullable<StoryContent['check']>, style: Layout): string {
  const applies = { label: 'Applies if:', text: check.applies };
  const verdicts = [
    { label: 'Has the problem:', text: check.hasProblem },
    { label: "Doesn't have it:", text: check.doesnt },
  ];
  if (style.checkStepLabel === 'none') return labelled([{ ...applies, steps: check.steps }, ...verdicts], style);
  const stepLabel = { label: 'Read-only steps:', text: '', steps: check.steps, stepsInline: style.checkStepLabel === 'inline' };
  return labelled([applies, stepLabel, ...verdicts], style);
}

function writeStory(content: StoryContent, style: Layout): string {
  const blocks = [
    '---',
    'title: Reflowed story',
    'date: 2026-10-14',
    'tags: [format]',
    `type: ${content.type}`,
    '---',
    '',
    '# Reflowed story',
    '',
    'What happened, in one paragraph.',
    '',
  ];
  const section = (heading: string, body: string) =>
    blocks.push(`##${style.heading(heading).startsWith(' ') ? '' : ' '}${style.heading(heading)}`, '', body, '');
  if (content.check !== undefined) section('Check if this applies to you', checkSection(content.check, style));
  if (content.type === 'success') {
    const { prerequisites, needs, steps, verify } = content.reproduce;
    section(
      'Reproduce this',
      labelled(
        [
          { label: 'Prerequisites:', text: prerequisites },
          { label: 'Your agent will need from you:', text: needs },
          { label: 'Steps:', text: '', steps, stepsInline: style.reproduceStepsInline },
          { label: 'Verify:', text: verify },
        ],
        style,
      ),
    );
  } else {
    section(
      'What I tried',
      content.tried.map((attempt, number) => `${style.marker.replace('1', String(number + 1))}${attempt}`).join('\n'),
    );
    section('What I need', content.need);
  }
  let text = blocks.join('\n');
  if (style.trailingSpaces) text = text.replaceAll('\n', '  \n');
  if (style.crlf) text = text.replaceAll('\n', '\r\n');
  return style.bom ? `\uFEFF${text}` : text;
}

/** The words under each label, read from the parsed section: what a reproducing agent acts on. */
function wordsUnderLabels(section: string, labels: readonly string[]): string[] {
  const text = readSectionText(section);
  const order = labelsInOrder(text, labels);
  if (!order.ok) throw new Error(order.problem);
  const ends: LabelPosition[] = [...order.positions.slice(1), { line: text.lines.length, column: 0 }];
  return order.positions.map((start, index) => {
    const from = afterLabel(start, labels[index] ?? '');
    const end = ends[index] as LabelPosition;
    const pieces: string[] = [];
    for (let line = from.line; line <= end.line && line < text.lines.length; line++) {
      const content = text.lines[line] ?? '';
      pieces.push(content.slice(line === from.line ? from.column : 0, line === end.line ? end.column : content.length));
    }
    return STEP_LABELS.map(comparable)
      .reduce((words, label) => words.split(label).join(' '), pieces.join(' '))
      .replace(/\s+/g, ' ')
      .trim();
  });
}

function expectedParts(content: StoryContent) {
  const check = content.check;
  return {
    check: check === undefined ? undefined : [[check.applies, ...check.steps].join(' '), check.hasProblem, check.doesnt],
    reproduce:
      content.type === 'fail'
        ? undefined
        : [content.reproduce.prerequisites, content.reproduce.needs, content.reproduce.steps.join(' '), content.reproduce.verify],
  };
}

function partsOf(story: ParsedStory) {
  const { check, reproduce, whatITried, whatINeed } = story.sections;
  return {
    frontMatter: story.frontMatter,
    narrative: story.narrative,
    summary: story.summary,
    hasCheck: story.hasCheck,
    sections: Object.keys(story.sections),
    check: check === undefined ? undefined : wordsUnderLabels(check, CHECK),
    reproduce: reproduce === undefined ? undefined : wordsUnderLabels(reproduce, REPRODUCE),
    tried: whatITried === undefined ? undefined : readSectionText(whatITried).lines.filter((line) => line !== ''),
    need: whatINeed,
  };
}

const plain: Layout = {
  joins: Array(8).fill('\n'),
  marker: '1. ',
  stepsGap: '\n',
  checkStepLabel: 'own line',
  reproduceStepsInline: false,
  bold: false,
  heading: (text) => text,
  crlf: false,
  bom: false,
  trailingSpaces: false,
};

describe('a re-flowed story parses to the same parts', () => {
  it('whatever the joins, step markers, bold labels, heading case, line endings and trailing spaces', () => {
    fc.assert(
      fc.property(storyContent, layout, (content, style) => {
        const reflowed = partsOf(parseStory(writeStory(content, style)));
        expect(reflowed).toEqual(partsOf(parseStory(writeStory(content, plain))));
        const expected = expectedParts(content);
        expect(reflowed.check).toEqual(expected.check?.map((words) => comparable(words)));
        expect(reflowed.reproduce).toEqual(expected.reproduce?.map((words) => comparable(words)));
        if (content.type === 'fail') expect(reflowed.tried).toEqual(content.tried.map((attempt) => comparable(attempt)));
      }),
      { numRuns: 200 },
    );
  });
});
