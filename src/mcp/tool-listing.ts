// How a tool appears in tools/list.
import type { Tool } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { inputJsonSchema, type JsonSchema, outputJsonSchema } from '../app/contract/json-schema.ts';
import { errorBodySchema } from '../domain/errors.ts';
import type { ToolDefinition } from './tool.ts';

/**
 * A tool's outputSchema: its answer, or the error object of a refusal. The refusal is listed too
 * because SDK clients (typescript-sdk 1.x) validate structuredContent against the outputSchema
 * even on isError results (typescript-sdk issue #1943), and would throw the typed error away.
 */
function toolOutputJsonSchema(schema: z.ZodObject): JsonSchema {
  return { type: 'object', anyOf: [outputJsonSchema(schema), outputJsonSchema(errorBodySchema)] };
}

export function toolListing(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.inputSchema) as Tool['inputSchema'],
    outputSchema: toolOutputJsonSchema(tool.outputSchema) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}
