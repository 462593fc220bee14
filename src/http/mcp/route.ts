// MCP at /mcp: both protocol eras on one endpoint, stateless, JSON responses (docs/design.md#surfaces).
// Each POST gets a new server. The token and the rate budget are settled before the body is read
// (design.md#admission); the body is then read and judged here, before any server runs: a batch
// is refused whole (batches left MCP in 2025-06-18, and one could hide a privileged call beside a
// public one), a 2026-07-28 request whose envelope or revision the SDK's classification refuses
// (or lorebook does not serve) is answered with that refusal, and the access rule is applied to the one message's method and tool. The
// SDK's handler then serves the request in the era it declares: a 2026-07-28 request (a `_meta`
// envelope) on the modern path, anything else through the stateless 2025 fallback.
import type { Server } from '@modelcontextprotocol/server';
import type { Context, Hono } from 'hono';
import { searchAs } from '../../app/search/search-as.ts';
import type { StorySearch } from '../../app/search/story-search.ts';
import { MCP_METHOD_ACCESS, mcpAccess } from '../../auth/access-rule.ts';
import { createMcpServer, MODERN_PROTOCOL_VERSIONS } from '../../mcp/server.ts';
import { type AdmissionDeps, admitCaller } from '../admission.ts';
import { withCpuCaller } from '../cpu-caller.ts';
import type { HttpEnv } from '../http-env.ts';
import {
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  JSON_RPC_SERVER_ERROR,
  jsonRpcErrorBody,
  MCP_PATH,
} from '../problem.ts';
import { SKILL_HEADER, skillUpdateFor } from '../skill-update.ts';
import { readMcpBody } from './body.ts';
import { eraOf, eraRefusal } from './era-gate.ts';
import { serveLegacy, serveModern } from './eras.ts';
import { paramsProblem } from './params.ts';
import { withSkillUpdate } from './skill-update.ts';

export interface McpRouteDeps extends AdmissionDeps {
  search: StorySearch;
  /** The public base URL: skill_update's url points under it. */
  baseUrl: string;
}

interface MessageShape {
  method: string | undefined;
  toolName: string | undefined;
  id: unknown;
}

function shapeOf(message: unknown): MessageShape {
  if (typeof message !== 'object' || message === null) return { method: undefined, toolName: undefined, id: undefined };
  const record = message as Record<string, unknown>;
  const method = typeof record.method === 'string' ? record.method : undefined;
  const params = record.params;
  const name = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).name : undefined;
  return {
    method,
    toolName: method === 'tools/call' && typeof name === 'string' ? name : undefined,
    id: record.id,
  };
}

const jsonRpcAnswer = (
  c: Context<HttpEnv>,
  status: 200 | 400 | 404 | 405 | 406 | 415,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response =>
  c.body(JSON.stringify(body), status, {
    ...headers,
    'Content-Type': 'application/json',
  });

const SERVED_METHODS = Object.keys(MCP_METHOD_ACCESS).join(', ');
/** A name echoed back is cut short: it comes from the caller and could be the whole body. */
const echoed = (name: string): string => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);

function unknownCallError(shape: MessageShape, access: 'unknown_method' | 'unknown_tool'): Record<string, unknown> {
  if (access === 'unknown_method') {
    return jsonRpcErrorBody(
      shape.id,
      JSON_RPC_METHOD_NOT_FOUND,
      `Method not found: ${echoed(shape.method ?? '')} is not a method lorebook serves. It serves ${SERVED_METHODS} and notifications/*.`,
    );
  }
  const what =
    shape.toolName === undefined ? 'tools/call needs params.name, a tool' : `Unknown tool ${echoed(shape.toolName)}: call a tool`;
  return jsonRpcErrorBody(shape.id, JSON_RPC_INVALID_PARAMS, `${what} that tools/list names.`);
}

export function mountMcp(app: Hono<HttpEnv>, deps: McpRouteDeps): void {
  app.post(MCP_PATH, async (c) => {
    // The token and the rate budget first, the body after (admission.ts, design.md#admission).
    const admitted = await admitCaller(c, deps);
    return admitted.answer(async () => {
      const text = await readMcpBody(c.req.raw, admitted.caller !== undefined);
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return jsonRpcAnswer(c, 400, jsonRpcErrorBody(null, JSON_RPC_PARSE_ERROR, 'Parse error: the body is not JSON.'));
      }
      if (Array.isArray(message)) {
        return jsonRpcAnswer(
          c,
          400,
          jsonRpcErrorBody(
            null,
            JSON_RPC_INVALID_REQUEST,
            'JSON-RPC batches are not supported (MCP removed them in 2025-06-18): send one message per request. Nothing in this batch was run.',
          ),
        );
      }
      const shape = shapeOf(message);
      c.set('rpcId', shape.id);
      const era = eraOf(c.req.raw.headers, message);
      const refusal = eraRefusal(era, shape.id, MODERN_PROTOCOL_VERSIONS);
      // A message without a method is a response or not JSON-RPC at all: the transport runs
      // nothing for it (or refuses it), so it needs no token; nor does one refused for its era.
      const access = shape.method === undefined || refusal !== undefined ? 'anonymous' : mcpAccess(shape.method, shape.toolName);
      admitted.requireAccess(access !== 'token', shape.toolName);
      if (refusal !== undefined) return jsonRpcAnswer(c, refusal.status, refusal.body);
      // Unknown methods and tools are answered here, before any server exists: what the access
      // rule does not classify never runs. A notification (no id) gets no answer but the transport's 202.
      if (shape.id !== undefined && (access === 'unknown_method' || access === 'unknown_tool')) {
        // 2026-07-28 over HTTP: an unknown method is also a 404 (the spec's MUST); an unknown tool
        // stays an in-band 200, and the 2025 era answers both in-band as it always has.
        const status = access === 'unknown_method' && era.kind === 'modern' ? 404 : 200;
        return jsonRpcAnswer(c, status, unknownCallError(shape, access));
      }

      const problem =
        era.kind === 'legacy' && shape.id !== undefined && shape.method !== undefined ? paramsProblem(shape.method, message) : undefined;
      if (problem !== undefined) return jsonRpcAnswer(c, 200, jsonRpcErrorBody(shape.id, JSON_RPC_INVALID_PARAMS, problem));

      const ctx = withCpuCaller(admitted.ctx, c, deps.clientAddress, admitted.caller);
      const server = (): Server => createMcpServer(ctx, admitted.caller, searchAs(deps.search, ctx.cpuCaller, c.req.raw.signal));
      const answer =
        era.kind === 'legacy' ? await serveLegacy(server(), c.req.raw, message) : await serveModern(server, c.req.raw, message);
      return await withSkillUpdate(answer, skillUpdateFor(c.req.header(SKILL_HEADER), deps.baseUrl));
    });
  });

  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  const notAllowed = (c: Context<HttpEnv>): Response =>
    jsonRpcAnswer(
      c,
      405,
      jsonRpcErrorBody(null, JSON_RPC_SERVER_ERROR, 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.'),
      {
        Allow: 'POST',
      },
    );
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
