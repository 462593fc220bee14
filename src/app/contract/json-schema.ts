// zod -> JSON Schema (draft 2020-12, MCP's and OpenAPI 3.1's dialect) with zod 4's own
// toJSONSchema, for both surfaces: tools/list and the OpenAPI document are generated from the use
// cases' schemas. Inputs are shown as accepted (defaults optional), outputs as produced.
import { z } from 'zod';

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
