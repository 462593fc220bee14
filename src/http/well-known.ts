// RFC 9728 protected-resource metadata: where a client that got a 401 learns how to get a token.
// Served at the root path (what WWW-Authenticate points at) and at the path-inserted form for
// the /mcp resource (RFC 9728 §3.1), which MCP clients also try.
import type { Hono } from 'hono';
import { RESOURCE_METADATA_PATH } from '../auth/access-rule.ts';
import { SCOPES } from '../auth/oauth/scopes.ts';
import type { HttpEnv } from './http-env.ts';
import { MCP_PATH } from './problem.ts';

export function resourceMetadata(baseUrl: string): Record<string, unknown> {
  return {
    resource: `${baseUrl}${MCP_PATH}`,
    // lorebook is its own authorization server (RFC 8414 metadata at the root, issuer = base URL).
    authorization_servers: [baseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: [...SCOPES],
    resource_name: 'lorebook',
  };
}

export function mountWellKnown(app: Hono<HttpEnv>, baseUrl: string): void {
  const metadata = resourceMetadata(baseUrl);
  for (const path of [RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}${MCP_PATH}`]) {
    app.get(path, (c) => c.json(metadata, 200, { 'Cache-Control': 'public, max-age=3600' }));
  }
}
