// Serving one judged /mcp request in the era it declares, with one server definition for both.
// The SDK's createMcpHandler serves the 2026-07-28 era; its own 2025 fallback would answer SSE
// streams, so the 2025 era is served here as lorebook always has (stateless, one JSON body) by the
// SDK's Streamable HTTP transport, and the modern handler is told to refuse 2025 traffic (it gets
// none: route.ts routes by the SDK's own classification, so the two can never disagree).
import { createMcpHandler, type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** A 2025-era request: the initialize handshake, or any request without a `_meta` envelope. */
export async function serveLegacy(server: Server, request: Request, message: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

/** A 2026-07-28 request (a `_meta` envelope, no handshake): server/discover, cache hints, resultType. */
export async function serveModern(server: () => Server, request: Request, message: unknown): Promise<Response> {
  // 'auto' answers one JSON body unless a handler sends a message before its result, which none
  // does; 'json' would say the same and warn about it on every request.
  const handler = createMcpHandler(server, { legacy: 'reject', responseMode: 'auto' });
  try {
    return await handler.fetch(request, { parsedBody: message });
  } finally {
    await handler.close();
  }
}
