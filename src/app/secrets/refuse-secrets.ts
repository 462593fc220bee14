// The secret check at the door of every write (docs/design.md#secrets): each string of the parsed
// arguments is scanned before anything is read or written, so a refused call leaves no item, op
// record, log line or search entry behind.
import { secretDetected } from '../../domain/secrets/secret-refusal.ts';
import type { CpuScope } from '../context/offloaded.ts';
import { scanSecretsOffloaded } from './scan-secrets-task.ts';

/**
 * Top-level arguments that are not text: upload_image's `data` is image bytes in base64, decoded
 * and re-encoded without their metadata before storing (src/app/images/reencode-image.ts), so no
 * text of it is kept, and random base64 would only make false findings.
 */
const NOT_TEXT: ReadonlySet<string> = new Set(['data']);

/** Throws secret_detected naming every finding (field, line, kind), never a value; the scan is charged to `scope`'s caller. */
export async function refuseSecrets(parsed: unknown, what: string, scope?: CpuScope): Promise<void> {
  const fields = textFields(parsed);
  if (fields.length === 0) return;
  const findings = await scanSecretsOffloaded(fields, scope);
  if (findings.length > 0) throw secretDetected(what, findings);
}

/** Every string in the arguments with its path, walked with a stack (the schema bounds its shape). */
export function textFields(data: unknown): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  const stack: Array<[string[], unknown]> = [[[], data]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [path, value] = next;
    if (typeof value === 'string') fields.push([path.length > 0 ? path.join('.') : '(input)', value]);
    else if (Array.isArray(value))
      value.forEach((item, index) => {
        stack.push([[...path, String(index)], item]);
      });
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (path.length === 0 && NOT_TEXT.has(key)) continue;
        stack.push([[...path, key], item]);
      }
    }
  }
  return fields.sort(([a], [b]) => a.localeCompare(b));
}
