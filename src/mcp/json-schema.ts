// zod -> JSON Schema (draft 2020-12, MCP's and OpenAPI 3.1's dialect) with zod 4's own
// toJSONSchema. Inputs are shown as accepted (defaults optional), outputs as produced.
import { z } from 'zod';
import { errorBodySchema } from './outputs.ts';

export type JsonSchema = Record<string, unknown>;

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

export function outputJsonSchema(schema: z.ZodType): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
}

/**
 * A tool's outputSchema: its answer, or the error object of a refusal. The refusal is listed too
 * because SDK clients (typescript-sdk 1.x) validate structuredContent against the outputSchema
 * even on isError results (typescript-sdk issue #1943), and would throw the typed error away.
 */
export function toolOutputJsonSchema(schema: z.ZodObject): JsonSchema {
  return { type: 'object', anyOf: [outputJsonSchema(schema), outputJsonSchema(errorBodySchema)] };
}
