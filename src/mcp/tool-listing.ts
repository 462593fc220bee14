// How a tool appears in tools/list.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { inputJsonSchema, toolOutputJsonSchema } from './json-schema.ts';
import type { ToolDefinition } from './tool.ts';

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
