// A 2026-07-28 MCP client in raw fetch, speaking the revision as its spec writes it: no
// initialize, every request carries its `_meta` envelope (protocol version, client info, client
// capabilities) and the MCP-Protocol-Version, Mcp-Method and (for a named call) Mcp-Name headers.
// No 2.x client package is installed, so this is the whole client: small enough to read, and any
// header or envelope key spelled differently from the spec would fail the suite's assertions.
export const MODERN = '2026-07-28';

export interface ModernAnswer {
  status: number;
  body: {
    id?: unknown;
    result?: Record<string, unknown> & { resultType?: string; ttlMs?: number; cacheScope?: string; _meta?: Record<string, unknown> };
    error?: { code: number; message: string; data?: Record<string, unknown> };
  } | null;
}

export interface ModernRequest {
  method: string;
  params?: Record<string, unknown>;
  token?: string;
  /** Header overrides: a value replaces the one the client would send; undefined drops it. */
  headers?: Record<string, string | undefined>;
  protocolVersion?: string;
}

/** The params' name that Mcp-Name carries, per method (tools/call, prompts/get name; resources/read uri). */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  const key = method === 'resources/read' ? 'uri' : method === 'tools/call' || method === 'prompts/get' ? 'name' : undefined;
  return key === undefined ? undefined : String(params[key]);
}

let nextId = 1;
export async function modernRpc(baseUrl: string, request: ModernRequest): Promise<ModernAnswer> {
  const version = request.protocolVersion ?? MODERN;
  const params = {
    ...request.params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'lorebook-e2e-modern', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
  const name = nameOf(request.method, params);
  const headers: Record<string, string | undefined> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': version,
    'Mcp-Method': request.method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
    ...(request.token === undefined ? {} : { Authorization: `Bearer ${request.token}` }),
    ...request.headers,
  };
  const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: sent,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: request.method, params }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}
