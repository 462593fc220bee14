import { validationFailed } from './errors.ts';

export const MAX_OP_ID_LENGTH = 128;
const OP_ID = /^[A-Za-z0-9._:-]+$/;

/**
 * Checks an `op_id` (HTTP: `Idempotency-Key`). It becomes part of a DynamoDB key and a log line,
 * so it is bounded (1–128 characters) and limited to `A-Z a-z 0-9 . _ : -`; a UUID or ULID fits.
 */
export function parseOpId(value: unknown): string {
  if (typeof value === 'string' && value.length >= 1 && value.length <= MAX_OP_ID_LENGTH && OP_ID.test(value)) return value;
  throw validationFailed('The op_id is not usable as an idempotency key.', {
    op_id: `Use 1 to ${MAX_OP_ID_LENGTH} characters from A-Z, a-z, 0-9, ".", "_", ":" and "-" (a UUID works), and send the same op_id when replaying the same request.`,
  });
}
