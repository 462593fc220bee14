// What SCAN_SECRETS_TASK runs (./scan-secrets-task.ts), in the offload worker or inline: every text
// argument scanned on its own, so a finding names its field and the line within it. A module of
// its own so secretlint loads only when a write is first scanned.
import { scanForSecrets } from '../../domain/secrets/scan-secrets.ts';
import type { FieldFinding } from '../../domain/secrets/secret-refusal.ts';

/** `[field, text]` pairs; findings carry no value, so nothing found crosses back to the main thread. */
export async function scanSecretFields(fields: ReadonlyArray<readonly [string, string]>): Promise<FieldFinding[]> {
  const findings: FieldFinding[] = [];
  for (const [field, text] of fields) {
    for (const finding of await scanForSecrets(text)) findings.push({ field, ...finding });
  }
  return findings;
}
