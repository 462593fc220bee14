// DynamoDB trouble a caller should retry (throttling, 5xx, a dropped connection) becomes the
// domain's retryable store_unavailable; anything else (a malformed request) is a bug and stays
// as it is, so it is not retried forever.
import { LorebookError } from '../domain/errors.ts';

const RETRY_AFTER_MS = 1000;

const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
  'TimeoutError',
  'RequestTimeout',
  'AbortError',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

export function isStoreTrouble(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name !== undefined && RETRYABLE_NAMES.has(e.name)) return true;
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TransactionCanceledException') return true;
  const status = e.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/** The retryable error for DynamoDB trouble, or undefined when the failure is not that. */
export function storeUnavailable(error: unknown): LorebookError | undefined {
  if (!isStoreTrouble(error)) return undefined;
  return new LorebookError(
    'store_unavailable',
    'The story store is not answering right now. Nothing you sent was lost: retry the same call (with the same op_id, if you used one) after retry_after_ms.',
    { retryAfterMs: RETRY_AFTER_MS, cause: error },
  );
}

/** Runs one SDK call, turning DynamoDB trouble into the retryable store_unavailable. */
export async function callStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeUnavailable(error) ?? error;
  }
}
