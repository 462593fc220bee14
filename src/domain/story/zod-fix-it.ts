import * as z from 'zod';
import { forbiddenCharProblem, type TextKind } from '../text-controls.ts';

// Small zod builders whose every issue message is a fix-it sentence naming the key, so the
// refusal an agent reads says what to write instead, not what zod expected.

/** How a wrong value reads in a message: `x`, "a list" or "a nested mapping". */
export function describe(input: unknown): string {
  if (Array.isArray(input)) return 'a list';
  if (input !== null && typeof input === 'object') return 'a nested mapping';
  return `\`${String(input)}\``;
}

/**
 * Text scalar; `missing` is the fix when absent, or undefined for an optional key. Control
 * characters are refused here, after YAML decoding, because a quoted YAML string can spell them
 * as escapes (`"\u0007"`) that the markdown itself never holds.
 */
export function text(key: string, missing: string | undefined, kind: TextKind = 'multiline') {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? (missing ?? `Give \`${key}\` as text.`)
          : `\`${key}\` must be text, not ${describe(issue.input)}; put the value in quotes.`,
    })
    .superRefine(check((value) => forbiddenCharProblem(value, kind)));
}

/** A refinement from a function that returns the fix for a bad value, or undefined when fine. */
export function check(problem: (value: string) => string | undefined) {
  return (value: string, ctx: z.core.$RefinementCtx<string>) => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
  };
}

/** An enum whose refusal lists the allowed values. */
export function oneOf<const T extends readonly [string, ...string[]]>(key: string, values: T, missing: string | undefined) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? (missing ?? `Set \`${key}\` to one of: ${values.join(', ')}.`)
        : `${describe(issue.input)} is not a valid \`${key}\`; use one of: ${values.join(', ')}.`,
  });
}

/** Optional non-blank text of at most `max` characters; `what` names it in messages. */
export function shortText(key: string, max: number, what = `\`${key}\``, kind: TextKind = 'single-line') {
  return text(key, undefined, kind).superRefine(
    check((value) =>
      value.trim() === ''
        ? `${what} is empty; give a value or remove it.`
        : [...value].length > max
          ? `${what} is longer than ${max} characters; shorten it.`
          : undefined,
    ),
  );
}
