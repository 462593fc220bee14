// Which protocol era a /mcp request speaks, and the refusals of a 2026-07-28 request that the
// route answers before the access rule (nothing runs for them, so they need no token). The era is
// the SDK's own classification (classifyInboundRequest, the code createMcpHandler routes by), so
// the route and the SDK can never disagree about it.
import {
  classifyInboundRequest,
  type InboundClassificationOutcome,
  type InboundHttpRequest,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';

export function eraOf(headers: Headers, message: unknown): InboundClassificationOutcome {
  const header = (name: string, key: keyof InboundHttpRequest): Partial<InboundHttpRequest> => {
    const value = headers.get(name);
    return value === null ? {} : { [key]: value };
  };
  return classifyInboundRequest({
    httpMethod: 'POST',
    body: message,
    ...header('mcp-protocol-version', 'protocolVersionHeader'),
    ...header('mcp-method', 'mcpMethodHeader'),
    ...header('mcp-name', 'mcpNameHeader'),
  });
}

export interface EraRefusal {
  status: 400 | 406 | 415;
  body: Record<string, unknown>;
}

const refusal = (status: number, id: unknown, error: { code: number; message: string; data?: unknown }): EraRefusal => ({
  status: status === 406 || status === 415 ? status : 400,
  body: {
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) },
  },
});

/**
 * A 2026-07-28 request the SDK's classification refuses unrun — a malformed envelope (-32602), an
 * Mcp-Method or MCP-Protocol-Version header that disagrees with the body (-32020) — or one naming
 * a modern revision not in `served`: UnsupportedProtocolVersion (-32022) with the supported list.
 * The SDK's handler answers the last one too, but only after the access rule would have asked for
 * a token; answered here, a client learns which revision to speak before anything else. (Mcp-Name
 * and missing headers are checked inside the SDK's handler, before anything runs.) 2025-era
 * requests carry no envelope and are never refused here.
 */
export function eraRefusal(era: InboundClassificationOutcome, id: unknown, served: readonly string[]): EraRefusal | undefined {
  if (era.kind === 'reject') return refusal(era.httpStatus, id, era);
  if (era.kind !== 'modern') return undefined;
  const requested = era.classification.revision ?? 'unknown';
  if (served.includes(requested)) return undefined;
  return refusal(400, id, new UnsupportedProtocolVersionError({ supported: [...served], requested }));
}
