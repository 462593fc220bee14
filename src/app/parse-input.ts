// Use-case inputs are checked with zod at the door; every field at fault is named at once, in
// the same validation_failed shape the story parser uses.
import type { z } from 'zod';
import { validationFailed } from '../domain/errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
    fields[field] = fields[field] === undefined ? issue.message : `${fields[field]}; ${issue.message}`;
  }
  throw validationFailed(`The ${what} arguments are not valid: ${Object.keys(fields).join(', ')}. Fix the named fields and call again.`, fields);
}
