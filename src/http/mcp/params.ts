// A 2025-era request whose params lack the shape its method requires is answered here with
// -32602 (JSON-RPC's "invalid params") and a readable list of what is wrong. The SDK's own check
// answers every method but tools/call with -32603, an internal error carrying a raw zod dump:
// a client reads that as lorebook's fault and learns nothing it can fix. The schemas are the
// SDK's own, so the check can never refuse what the SDK would serve.
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/core';

interface RequestSchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

const REQUEST_SCHEMAS: ReadonlyMap<string, RequestSchema> = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
  ['completion/complete', CompleteRequestSchema],
]);

/** A bound on the issues named, so a deeply wrong message still gets a short answer. */
const MAX_ISSUES = 5;

/** What is wrong with the request's params, for the -32602 message; undefined when its method's schema accepts it. */
export function paramsProblem(method: string, message: unknown): string | undefined {
  const schema = REQUEST_SCHEMAS.get(method);
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const named = issues.slice(0, MAX_ISSUES).map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return `Invalid params for ${method}: ${named.join('; ')}${more}. Fix them and send the request again; nothing was run.`;
}
