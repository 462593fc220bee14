import { afterLabel, comparable, findLabel, type LabelPosition, type SectionText } from './section-labels.ts';

/** Labels that may introduce the read-only steps; they are markers, not steps themselves. */
export const STEP_LABELS = ['Read-only steps:', 'Steps:'] as const;

const CONTENT = /[\p{L}\p{N}]/u;
const STEP_LABEL_TEXT = STEP_LABELS.map(comparable);

function saysSomething(text: string): boolean {
  return CONTENT.test(STEP_LABEL_TEXT.reduce((rest, label) => rest.split(label).join(' '), text));
}

/** Where the condition after `Applies if:` stops on its line: at a step label, or the line's end. */
function conditionEnd(text: SectionText, from: LabelPosition, lineEnd: number): number {
  const columns = STEP_LABELS.map((label) => findLabel(text, label, from))
    .filter((at): at is LabelPosition => at !== undefined && at.line === from.line)
    .map((at) => at.column);
  return Math.min(lineEnd, ...columns);
}

/**
 * True when the check has read-only steps between its `Applies if:` condition and
 * `Has the problem:` — numbered, bulleted, plain lines, a code block, or text after
 * `Read-only steps:`. The condition is the rest of the `Applies if:` line (or, when that is
 * empty, the next line with text), so the condition alone never passes for steps.
 */
export function hasReadOnlySteps(text: SectionText, applies: LabelPosition, hasProblem: LabelPosition, appliesLabel: string): boolean {
  const line = (index: number) => text.lines[index] ?? '';
  const end = (index: number) => (index === hasProblem.line ? hasProblem.column : line(index).length);
  const from = afterLabel(applies, appliesLabel);
  const stop = conditionEnd(text, from, end(applies.line));

  // Text after a step label on the `Applies if:` line is steps ("… Read-only steps: open x.").
  const slices = [line(applies.line).slice(stop, end(applies.line))];
  let conditionLine = applies.line;
  if (!CONTENT.test(line(applies.line).slice(from.column, stop))) {
    // `Applies if:` alone on its line: the condition is the next line that says something.
    let next = applies.line + 1;
    while (next < hasProblem.line && !CONTENT.test(line(next))) next++;
    if (next < hasProblem.line) conditionLine = next;
  }
  for (let index = conditionLine + 1; index < hasProblem.line; index++) {
    if (text.codeLines.has(index)) return true;
    slices.push(line(index));
  }
  if (hasProblem.line > conditionLine) slices.push(line(hasProblem.line).slice(0, hasProblem.column));
  return slices.some(saysSomething);
}
