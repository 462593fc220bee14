// The one error taxonomy (docs/design.md#errors), shared by MCP, HTTP and the CLI.
// Every refusal a caller can see is a LorebookError; its message is written for an agent:
// what went wrong and what to do next.
import { z } from 'zod';

export const ERROR_HTTP_STATUS = {
  validation_failed: 422,
  payload_too_large: 413,
  unauthenticated: 401,
  forbidden: 403,
  account_suspended: 403,
  not_found: 404,
  conflict: 409,
  revision_conflict: 409,
  slug_taken: 409,
  duplicate_content: 409,
  idempotency_key_reused: 422,
  rate_limited: 429,
  store_unavailable: 503,
  upstream_failed: 502,
  secret_detected: 422,
} as const;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

const ERROR_CODES = Object.keys(ERROR_HTTP_STATUS) as [ErrorCode, ...ErrorCode[]];

/**
 * The typed error of a refusal (toBody), as both surfaces show it: MCP's isError
 * structuredContent and the lorebook fields of /v1's problem+json. The type is derived from the
 * schema, so the body and its listed schema cannot drift apart.
 */
export const errorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).describe('The error code; decides what to do next.'),
    message: z.string().describe('What went wrong and what to do next, written for an agent.'),
    retryable: z.boolean().describe('Whether the same call may succeed later (after retry_after_ms when given).'),
    retry_after_ms: z.number().int().min(0).optional().describe('Wait at least this long before retrying.'),
    details: z.record(z.string(), z.unknown()).optional().describe('Machine-readable specifics, e.g. `fields` for validation_failed.'),
  })
  .describe('A refusal: nothing was changed.');

export type ErrorBody = z.output<typeof errorBodySchema>;

const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'conflict',
  'revision_conflict',
  'rate_limited',
  'store_unavailable',
  'upstream_failed',
]);

export interface LorebookErrorOptions {
  details?: Record<string, unknown>;
  /** Overrides the code's default, e.g. a `conflict` that no retry can resolve. */
  retryable?: boolean;
  retryAfterMs?: number;
  cause?: unknown;
}

export class LorebookError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterMs: number | undefined;
  private readonly retryableOverride: boolean | undefined;

  constructor(code: ErrorCode, message: string, options: LorebookErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'LorebookError';
    this.code = code;
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
    this.retryableOverride = options.retryable;
  }

  get retryable(): boolean {
    return this.retryableOverride ?? RETRYABLE.has(this.code);
  }

  get httpStatus(): number {
    return ERROR_HTTP_STATUS[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.retryAfterMs !== undefined) body.retry_after_ms = this.retryAfterMs;
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

/** Thrown when input fails validation; `fields` maps each field or section at fault to how to fix it. */
export function validationFailed(message: string, fields: Record<string, string>): LorebookError {
  return new LorebookError('validation_failed', message, { details: { fields } });
}

/** Thrown when markdown or a title is over the size limits, before anything is written. */
export function payloadTooLarge(message: string, details: Record<string, unknown>): LorebookError {
  return new LorebookError('payload_too_large', message, { details });
}

/** Thrown for an unknown slug, or one the caller may not see (never `forbidden` for those). */
export function notFound(slug: string): LorebookError {
  return new LorebookError(
    'not_found',
    `No story "${slug}" is visible to you. Check the slug (search_stories lists them); private and withdrawn stories are visible only to their author.`,
    { details: { slug } },
  );
}

/** Thrown when a caller who is not the author tries an author-only write. */
export function forbidden(message: string, details?: Record<string, unknown>): LorebookError {
  return new LorebookError('forbidden', message, details === undefined ? {} : { details });
}

export function isLorebookError(value: unknown): value is LorebookError {
  return value instanceof LorebookError;
}
