import { afterLabel, findLabel, type LabelPosition, type SectionText } from './section-labels.ts';

export type LabelOrder = { ok: true; positions: LabelPosition[] } | { ok: false; problem: string };

function quoted(labels: readonly string[]): string {
  return labels.map((label) => `\`${label}\``).join(', ');
}

/**
 * Checks that every label is present and that they can be read in the given order. A label may
 * also occur elsewhere (a step that says "Verify: the build passes." before the real `Verify:`):
 * the order holds when some occurrence of each label follows the one chosen for the label before
 * it, and the earliest such occurrence is the one returned.
 */
export function labelsInOrder(text: SectionText, labels: readonly string[]): LabelOrder {
  const missing = labels.filter((label) => findLabel(text, label) === undefined);
  if (missing.length > 0) return { ok: false, problem: `It lacks ${quoted(missing)}.` };
  const positions: LabelPosition[] = [];
  let from: LabelPosition = { line: 0, column: 0 };
  for (const [index, label] of labels.entries()) {
    const at = findLabel(text, label, from);
    if (at === undefined)
      return { ok: false, problem: `\`${labels[index - 1]}\` must come before \`${label}\` (the order is ${quoted(labels)}).` };
    positions.push(at);
    from = afterLabel(at, label);
  }
  return { ok: true, positions };
}
