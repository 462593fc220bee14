// Use-case inputs are checked with zod at the door; every field at fault is named at once, in
// the same validation_failed shape the story parser uses. Every text argument is also checked
// for characters no stored text may hold (src/domain/text-controls.ts), so no use case can store
// one whatever its schema says.
import type { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import { forbiddenCharProblem } from '../../domain/text-controls.ts';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  const fields: Record<string, string> = {};
  if (result.success) {
    for (const [field, problem] of textProblems(result.data)) fields[field] = problem;
    if (Object.keys(fields).length === 0) return result.data;
  } else {
    for (const issue of result.error.issues) {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
      fields[field] = fields[field] === undefined ? issue.message : `${fields[field]}; ${issue.message}`;
    }
  }
  throw validationFailed(
    `The ${what} arguments are not valid: ${Object.keys(fields).join(', ')}. Fix the named fields and call again.`,
    fields,
  );
}

/**
 * Every string in the parsed arguments that holds a forbidden character, by field path. Walks
 * the schema's output (bounded by the schema's own shape), with a stack instead of recursion.
 */
function textProblems(data: unknown): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  const stack: Array<[string[], unknown]> = [[[], data]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [path, value] = next;
    if (typeof value === 'string') {
      const problem = forbiddenCharProblem(value);
      if (problem !== undefined) problems.push([path.length > 0 ? path.join('.') : '(input)', problem]);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        stack.push([[...path, String(index)], item]);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) stack.push([[...path, key], item]);
    }
  }
  return problems.sort(([a], [b]) => a.localeCompare(b));
}
