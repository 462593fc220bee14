// The secret scan on the offload worker, like parsing: it usually takes ~2 ms for a 64 KiB story,
// but up to ~70 ms for hostile text (64 KiB of base64), which would hold up every request
// around it on the event loop (BENCHMARKS.md "Secrets at the door"). A scan stopped by its budget
// refuses the call: a text that could not be scanned is not stored.
import { validationFailed } from '../../domain/errors.ts';
import type { FieldFinding } from '../../domain/secrets/secret-refusal.ts';
import { OffloadBudgetExceeded, OffloadFailed, sharedOffload, type OffloadTask } from '../../offload/offload.ts';

/** ~70× the slowest scan measured (hostile base64); a scan this slow is an attack, not a story. */
export const SECRET_SCAN_BUDGET_MS = 5_000;

type Fields = ReadonlyArray<readonly [string, string]>;

export const SCAN_SECRETS_TASK: OffloadTask<Fields, FieldFinding[]> = {
  module: new URL('./scan-secret-fields.ts', import.meta.url),
  name: 'scanSecretFields',
  run: async (fields) => (await import('./scan-secret-fields.ts')).scanSecretFields(fields),
  budgetMs: SECRET_SCAN_BUDGET_MS,
};

export async function scanSecretsOffloaded(fields: Fields): Promise<FieldFinding[]> {
  try {
    return await sharedOffload().run(SCAN_SECRETS_TASK, fields);
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
