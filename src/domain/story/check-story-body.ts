import { labelsInOrder } from './label-order.ts';
import { hasReadOnlySteps } from './read-only-steps.ts';
import { SECTION_HEADINGS } from './section-headings.ts';
import { readSectionText } from './section-labels.ts';
import type { StoryBody } from './story-body.ts';
import type { SectionKey, StoryType } from './story-types.ts';
import type { ValidationFaults } from './validation-faults.ts';

export const REPRODUCE_LABELS = ['Prerequisites:', 'Your agent will need from you:', 'Steps:', 'Verify:'] as const;
export const CHECK_LABELS = ['Applies if:', 'Has the problem:', "Doesn't have it:"] as const;

/** The sections each story type must have; the check is optional for both. */
export const REQUIRED_SECTIONS: Readonly<Record<StoryType, readonly SectionKey[]>> = {
  success: ['reproduce'],
  fail: ['whatITried', 'whatINeed'],
};

const HOW_TO_WRITE: Record<SectionKey, string> = {
  check:
    "It holds, in this order, `Applies if:` (when to run the check), the read-only steps (numbered, bulleted or one per line), then `Has the problem:` and `Doesn't have it:`; each label starts a line or a sentence.",
  reproduce:
    'It holds, in this order, `Prerequisites:`, `Your agent will need from you:`, `Steps:` (numbered, bulleted or one per line) and `Verify:`; each label starts a line or a sentence.',
  whatITried: 'List your attempts, one per line, numbered or not (1. what you did — what happened).',
  whatINeed: 'Say what answer or help you are looking for.',
};

function section(key: SectionKey) {
  const found = SECTION_HEADINGS.find((entry) => entry.key === key);
  if (found === undefined) throw new Error(`unknown section ${key}`);
  return found;
}

function reproduceProblem(markdown: string): string | undefined {
  const order = labelsInOrder(readSectionText(markdown), REPRODUCE_LABELS);
  return order.ok ? undefined : order.problem;
}

function checkSectionProblem(markdown: string): string | undefined {
  const text = readSectionText(markdown);
  const order = labelsInOrder(text, CHECK_LABELS);
  if (!order.ok) return order.problem;
  const [applies, hasProblem] = order.positions;
  if (applies !== undefined && hasProblem !== undefined && !hasReadOnlySteps(text, applies, hasProblem, CHECK_LABELS[0])) {
    return 'Put the read-only steps after the `Applies if:` condition and before `Has the problem:` (on lines of their own, or after `Read-only steps:`); the steps only look, never change anything.';
  }
  return undefined;
}

/** Adds a fault for every body rule the story breaks (title heading, narrative, sections). */
export function checkStoryBody(body: StoryBody, type: StoryType | undefined, title: string | undefined, faults: ValidationFaults): void {
  const heading = body.titleHeading;
  if (heading === undefined) {
    faults.add(
      'body.title',
      `Start the body with the title as a heading: \`# ${title ?? '<title>'}\` on the first line after the front matter.`,
    );
  } else {
    if (body.textBeforeTitle) faults.add('body.title', 'Move the text above the `# ` title heading below it; the heading comes first.');
    const same = (text: string) => title !== undefined && text.replace(/\s+/g, ' ') === title.replace(/\s+/g, ' ');
    if (title !== undefined && !same(heading.raw) && !same(heading.plain)) {
      faults.add('body.title', `The heading \`# ${heading.raw}\` differs from the front matter title "${title}"; make them the same text.`);
    }
  }
  if (body.narrative.trim() === '') {
    faults.add(
      'body.narrative',
      'Write the story itself (first person: what you built, what happened) between the `# ` heading and the first `## ` section.',
    );
  }

  for (const key of body.duplicates) {
    faults.add(`section.${section(key).field}`, `\`## ${section(key).heading}\` appears more than once; merge it into one section.`);
  }
  for (const key of type === undefined ? [] : REQUIRED_SECTIONS[type]) {
    if (body.sections[key] === undefined) {
      faults.add(`section.${section(key).field}`, `A ${type} story needs a \`## ${section(key).heading}\` section. ${HOW_TO_WRITE[key]}`);
    }
  }
  for (const { key, heading: name, field } of SECTION_HEADINGS) {
    const markdown = body.sections[key];
    if (markdown === undefined) continue;
    if (markdown.trim() === '') {
      faults.add(`section.${field}`, `\`## ${name}\` is empty. ${HOW_TO_WRITE[key]}`);
      continue;
    }
    const problem = key === 'check' ? checkSectionProblem(markdown) : key === 'reproduce' ? reproduceProblem(markdown) : undefined;
    if (problem !== undefined) faults.add(`section.${field}`, `\`## ${name}\`: ${problem} ${HOW_TO_WRITE[key]}`);
  }
}
