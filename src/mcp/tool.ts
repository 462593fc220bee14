// What a lorebook MCP tool is: a use case's contract (its name, described zod input and output
// schemas, from src/app), a title and a description written for the model, honest annotations,
// and `run`, which calls the use case. Tools know nothing of HTTP; the server (server.ts) lists
// and calls them.
import type { ResourceLink, TextContent, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { AppContext, Caller } from '../app/context/app-context.ts';
import type { StorySearch } from '../app/search/story-search.ts';
import type { McpToolName } from '../auth/mcp-tool-name.ts';

export interface ToolDeps {
  ctx: AppContext;
  search: StorySearch;
}

export interface ToolDefinition<O extends z.ZodObject = z.ZodObject, N extends McpToolName = McpToolName> {
  /** One of the tool names the access rule classifies (src/auth/mcp-tool-name.ts): any other does not compile. */
  name: N;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: O;
  annotations: ToolAnnotations;
  /** Validates `args` itself (through the use case), so a bad argument is a typed validation_failed. */
  run(deps: ToolDeps, caller: Caller | undefined, args: Record<string, unknown>): Promise<z.output<O>>;
  /** resource_link content items the answer carries beside its JSON text (the stories it names). */
  links?(outcome: z.output<O>): ResourceLink[];
  /** The answer's text content, when it is not the answer as JSON (get_story: the story text between markers). */
  text?(outcome: z.output<O>): TextContent[];
}

export function defineTool<O extends z.ZodObject, N extends McpToolName>(tool: ToolDefinition<O, N>): ToolDefinition<O, N> {
  return tool;
}
