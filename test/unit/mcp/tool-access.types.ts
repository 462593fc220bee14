// Compile-time promise, checked by `npm run typecheck` (no test runner involved): an MCP tool whose
// name the access rule (src/auth/access-rule.ts) does not classify does not compile. If it ever
// did, the `@ts-expect-error` below would be unused and typecheck would fail.
import { z } from 'zod';
import { defineTool } from '../../../src/mcp/tool.ts';

export const toolWithoutAccessRule = defineTool({
  // @ts-expect-error 'tool_without_access_rule' is not a key of MCP_TOOL_ACCESS
  name: 'tool_without_access_rule',
  title: 'A tool nobody classified',
  description: 'It must not compile: every tool needs an access rule and, when it needs a token, a scope.',
  inputSchema: z.object({}),
  outputSchema: z.object({}),
  annotations: { readOnlyHint: true },
  async run() {
    return {};
  },
});
