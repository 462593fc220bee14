// The secret scan on the offload worker, like parsing: it usually takes ~2 ms for a 64 KiB story,
// but up to ~70 ms for hostile text (64 KiB of base64), which would hold up every request
// around it on the event loop (BENCHMARKS.md "Secrets at the door"). A scan stopped by its budget
// refuses the call: a text that could not be scanned is not stored.
import { validationFailed } from '../../domain/errors.ts';
import type { FieldFinding } from '../../domain/secrets/secret-refusal.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../../domain/story/story-limits.ts';
import { OffloadBudgetExceeded, OffloadFailed, type OffloadTask } from '../../offload/offload.ts';
import { type CpuScope, runOffloaded } from '../context/offloaded.ts';

/**
 * The parse's budget: the first task of a fresh worker also loads secretlint, and on a loaded
 * machine (load 10 on 2 cores) that took past 5 s once, refusing an ordinary story.
 */
export const SECRET_SCAN_BUDGET_MS = MARKDOWN_PARSE_BUDGET_MS;

type Fields = ReadonlyArray<readonly [string, string]>;

export const SCAN_SECRETS_TASK: OffloadTask<Fields, FieldFinding[]> = {
  module: new URL('./scan-secret-fields.ts', import.meta.url),
  name: 'scanSecretFields',
  run: async (fields) => (await import('./scan-secret-fields.ts')).scanSecretFields(fields),
  budgetMs: SECRET_SCAN_BUDGET_MS,
};

/**
 * In the caller's share of the context's workers (docs/design.md#fair-cpu), as its parse is: a
 * caller over its share or its minute of CPU is refused before its text is scanned.
 */
export async function scanSecretsOffloaded(fields: Fields, scope?: CpuScope): Promise<FieldFinding[]> {
  try {
    return await runOffloaded(scope, SCAN_SECRETS_TASK, fields);
  } catch (error) {
    if (error instanceof OffloadBudgetExceeded || error instanceof OffloadFailed) {
      const names = Object.fromEntries(
        fields.map(([field]) => [field, 'Could not be scanned for secrets within the time or memory set aside; send shorter text.']),
      );
      throw validationFailed(`The arguments took longer than the ${SECRET_SCAN_BUDGET_MS} ms secret-scan budget to scan.`, names);
    }
    throw error;
  }
}
