// A blob store that does not answer (a full disk, S3 down or throttling) is the same retryable
// store_unavailable as DynamoDB trouble: nothing was recorded, the same call may be retried.
import { LorebookError } from '../../domain/errors.ts';

const RETRY_AFTER_MS = 1000;

export function storeUnavailable(what: 'read' | 'write' | 'delete', cause: unknown): LorebookError {
  return new LorebookError(
    'store_unavailable',
    `The image store could not ${what} the image right now. Nothing was recorded: retry the same call (with the same op_id, if you used one) after retry_after_ms.`,
    { retryAfterMs: RETRY_AFTER_MS, cause },
  );
}
