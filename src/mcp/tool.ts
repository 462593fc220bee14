// What a lorebook MCP tool is: a name, a description written for the model, a described zod
// input schema, an output schema, honest annotations, and `run`, which calls one use case.
// Tools know nothing of HTTP; the server (server.ts) lists and calls them.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AppContext, Caller } from '../app/app-context.ts';
import type { StorySearch } from '../app/search/story-search.ts';
import { LorebookError } from '../domain/errors.ts';

export interface ToolDeps {
  ctx: AppContext;
  search: StorySearch;
}

export interface ToolDefinition<O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: O;
  annotations: ToolAnnotations;
  /** Validates `args` itself (through the use case), so a bad argument is a typed validation_failed. */
  run(deps: ToolDeps, caller: Caller | undefined, args: Record<string, unknown>): Promise<z.output<O>>;
}

export function defineTool<O extends z.ZodObject>(tool: ToolDefinition<O>): ToolDefinition<O> {
  return tool;
}

/**
 * A strict object whose every field carries a description: the type demands one per key, so a
 * field added to a use case's schema cannot reach tools/list or the OpenAPI document undescribed.
 * The fields are the use case's own (same constraints), so the listed schema cannot drift from
 * what the use case accepts.
 */
export function describedObject<S extends Record<string, z.ZodType>>(shape: S, descriptions: { [K in keyof S]: string }): z.ZodObject<S, z.core.$strict> {
  const described: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shape)) described[key] = field.describe(descriptions[key as keyof S]);
  return z.strictObject(described as S);
}

export const OP_ID_DESCRIPTION =
  'Only for apps replaying a queued request: the same op_id makes a repeated delivery return the first answer. A model must not invent one; leave it out.';

/** list_notifications and every write: the HTTP edge refuses these without a token first; this is the second lock. */
export function signedIn(caller: Caller | undefined): Caller {
  if (caller === undefined) {
    throw new LorebookError('unauthenticated', 'This tool needs a lorebook token. Connect with an Authorization: Bearer header (npm run token -- create --handle you).');
  }
  return caller;
}
