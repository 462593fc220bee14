// The door of every write use case: parseInput (zod, forbidden characters) and then the secret
// scan (./secrets/refuse-secrets.ts), before the use case reads or writes anything. Reads keep
// parseInput alone: they store nothing.
import type { z } from 'zod';
import type { CpuScope } from '../context/offloaded.ts';
import { parseInput } from './parse-input.ts';

/** `scope`: the call's context, whose caller the secret scan is charged to (the process's own work without one). */
export async function parseWriteInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  scope?: CpuScope,
): Promise<z.output<S>> {
  const parsed = parseInput(schema, input, what);
  // Loaded on the first write, not at a cold start (what the http function loads at a cold start is bounded:
  // test/unit/infra/lorebook-stack/bundled.test.ts).
  const { refuseSecrets } = await import('../secrets/refuse-secrets.ts');
  await refuseSecrets(parsed, what, scope);
  return parsed;
}
