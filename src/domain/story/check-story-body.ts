import { SECTION_HEADINGS } from './section-headings.ts';
import { labelLine, readSectionText } from './section-labels.ts';
import type { StoryBody } from './story-body.ts';
import type { SectionKey, StoryType } from './story-types.ts';
import type { ValidationFaults } from './validation-faults.ts';

export const REPRODUCE_LABELS = ['Prerequisites:', 'Your agent will need from you:', 'Steps:', 'Verify:'] as const;
export const CHECK_LABELS = ['Applies if:', 'Has the problem:', "Doesn't have it:"] as const;

const REQUIRED_SECTIONS: Record<StoryType, SectionKey[]> = {
  success: ['reproduce'],
  fail: ['whatITried', 'whatINeed'],
};

const HOW_TO_WRITE: Record<SectionKey, string> = {
  check:
    'It holds `Applies if:` (when to run the check), read-only steps (a numbered list), then `Has the problem:` and `Doesn\'t have it:`.',
  reproduce:
    'It holds `Prerequisites:`, `Your agent will need from you:`, `Steps:` (a numbered list) and `Verify:`, each label at the start of a line.',
  whatITried: 'List your attempts as a numbered list (1. what you did — what happened).',
  whatINeed: 'Say what answer or help you are looking for.',
};

function section(key: SectionKey) {
  const found = SECTION_HEADINGS.find((entry) => entry.key === key);
  if (found === undefined) throw new Error(`unknown section ${key}`);
  return found;
}

function missingLabels(markdown: string, labels: readonly string[]): string[] {
  const text = readSectionText(markdown);
  return labels.filter((label) => labelLine(text, label) === undefined);
}

function lacks(missing: string[]): string {
  return `It lacks ${missing.map((label) => `\`${label}\``).join(', ')}.`;
}

function reproduceProblem(markdown: string): string | undefined {
  const missing = missingLabels(markdown, REPRODUCE_LABELS);
  return missing.length === 0 ? undefined : lacks(missing);
}

function checkSectionProblem(markdown: string): string | undefined {
  const missing = missingLabels(markdown, CHECK_LABELS);
  if (missing.length > 0) return lacks(missing);
  const text = readSectionText(markdown);
  const applies = labelLine(text, 'Applies if:') ?? 0;
  const hasProblem = labelLine(text, 'Has the problem:') ?? 0;
  if (hasProblem < applies) return '`Applies if:` must come before `Has the problem:`.';
  if (!text.stepLines.some((line) => line > applies && line < hasProblem)) {
    return 'Put the read-only steps (a numbered list) between `Applies if:` and `Has the problem:`; the steps only look, never change anything.';
  }
  return undefined;
}

/** Adds a fault for every body rule the story breaks (title heading, narrative, sections). */
export function checkStoryBody(body: StoryBody, type: StoryType | undefined, title: string | undefined, faults: ValidationFaults): void {
  const heading = body.titleHeading;
  if (heading === undefined) {
    faults.add('body.title', `Start the body with the title as a heading: \`# ${title ?? '<title>'}\` on the first line after the front matter.`);
  } else {
    if (body.textBeforeTitle) faults.add('body.title', 'Move the text above the `# ` title heading below it; the heading comes first.');
    const same = (text: string) => title !== undefined && text.replace(/\s+/g, ' ') === title.replace(/\s+/g, ' ');
    if (title !== undefined && !same(heading.raw) && !same(heading.plain)) {
      faults.add('body.title', `The heading \`# ${heading.raw}\` differs from the front matter title "${title}"; make them the same text.`);
    }
  }
  if (body.narrative.trim() === '') {
    faults.add('body.narrative', 'Write the story itself (first person: what you built, what happened) between the `# ` heading and the first `## ` section.');
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
