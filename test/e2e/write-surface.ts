// One write, sent through any surface: an MCP tools/call with the real SDK client, the matching
// /v1 request with fetch, or the /v1 request as worklore's skill writes it (/reproduced, /checked,
// an edit as text/markdown with X-Revision-* headers). All answer the use case's outcome, so a test
// written once proves the promise for each.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LorebookServer } from '../helpers/lorebook-server.ts';

export type Surface = 'mcp' | 'http' | 'worklore';

export interface WriteAnswer {
  /** The outcome (or the error body of a refusal). */
  body: Record<string, unknown>;
  refused: boolean;
  /** HTTP only. */
  status?: number;
  replayedHeader?: string | null;
}

export type WriteTool =
  | 'publish_story'
  | 'edit_story'
  | 'report_reproduction'
  | 'withdraw_reproduction'
  | 'report_check'
  | 'report_drift'
  | 'flag_story'
  | 'unflag_story'
  | 'appeal_moderation'
  | 'set_visibility'
  | 'mark_notifications_read';

type Args = Record<string, unknown>;

interface HttpRequest {
  method: string;
  path: string;
  body: Args | undefined;
  /** Sent as text/markdown instead of JSON, with these headers. */
  markdown?: { text: string; headers: Record<string, string> };
}

function httpRequest(tool: WriteTool, args: Args): HttpRequest {
  const { slug, op_id: _opId, ...rest } = args;
  const story = `/v1/stories/${String(slug)}`;
  switch (tool) {
    case 'publish_story':
      return { method: 'POST', path: '/v1/stories', body: slug === undefined ? rest : { ...rest, slug } };
    case 'edit_story':
      return { method: 'PUT', path: story, body: rest };
    case 'report_reproduction':
      return { method: 'POST', path: `${story}/reproductions`, body: rest };
    case 'withdraw_reproduction':
      return { method: 'DELETE', path: `${story}/reproductions`, body: undefined };
    case 'report_check':
      return { method: 'POST', path: `${story}/checks`, body: rest };
    case 'report_drift':
      return { method: 'POST', path: `${story}/drift`, body: rest };
    case 'flag_story':
      return { method: 'POST', path: `${story}/flags`, body: rest };
    case 'unflag_story':
      return { method: 'DELETE', path: `${story}/flags`, body: undefined };
    case 'appeal_moderation':
      return { method: 'POST', path: `${story}/appeals`, body: rest };
    case 'set_visibility':
      return { method: 'POST', path: `${story}/visibility`, body: rest };
    case 'mark_notifications_read':
      return { method: 'POST', path: '/v1/notifications/read', body: rest };
  }
}

const REVISION_HEADERS = { kind: 'X-Revision-Kind', note: 'X-Revision-Note', source: 'X-Revision-Source' } as const;

/** The request as worklore's skill sends it, where its names differ from lorebook's. */
function workloreRequest(tool: WriteTool, args: Args): HttpRequest {
  const story = `/v1/stories/${String(args.slug)}`;
  const request = httpRequest(tool, args);
  if (tool === 'report_reproduction') return { ...request, path: `${story}/reproduced` };
  if (tool === 'report_check') return { ...request, path: `${story}/checked` };
  if (tool === 'edit_story') {
    const headers: Record<string, string> = {};
    for (const [field, header] of Object.entries(REVISION_HEADERS)) if (typeof args[field] === 'string') headers[header] = args[field];
    return { ...request, body: undefined, markdown: { text: String(args.markdown), headers } };
  }
  return request;
}

export interface Writer {
  write(tool: WriteTool, args: Args): Promise<WriteAnswer>;
}

export async function writer(server: LorebookServer, surface: Surface, token: string): Promise<Writer> {
  if (surface === 'mcp') {
    const client: Client = await server.mcp(token);
    return {
      async write(tool, args) {
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        return { body: result.structuredContent as Args, refused: result.isError === true };
      },
    };
  }
  return {
    async write(tool, args) {
      const request = surface === 'worklore' ? workloreRequest(tool, args) : httpRequest(tool, args);
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...request.markdown?.headers };
      if (request.body !== undefined) headers['Content-Type'] = 'application/json';
      if (request.markdown !== undefined) headers['Content-Type'] = 'text/markdown';
      if (typeof args.op_id === 'string') headers['Idempotency-Key'] = args.op_id;
      const body = request.markdown?.text ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
      const response = await server.fetch(request.path, { method: request.method, headers, ...(body === undefined ? {} : { body }) });
      return {
        body: (await response.json()) as Args,
        refused: !response.ok,
        status: response.status,
        replayedHeader: response.headers.get('idempotent-replayed'),
      };
    },
  };
}
