// The typed error of a refusal (LorebookError.toBody), as both surfaces show it: MCP's isError
// structuredContent and the lorebook fields of /v1's problem+json. The type is derived from the
// schema, so the body and its listed schema cannot drift apart.
import { z } from 'zod';
import { ERROR_HTTP_STATUS, type ErrorCode } from './errors.ts';

const ERROR_CODES = Object.keys(ERROR_HTTP_STATUS) as [ErrorCode, ...ErrorCode[]];

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
