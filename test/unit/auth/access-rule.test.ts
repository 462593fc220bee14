import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_HTTP_ROUTES,
  httpRouteIsAnonymous,
  MCP_METHOD_ACCESS,
  MCP_TOOL_ACCESS,
  mcpAccess,
  RESOURCE_METADATA_PATH,
  wwwAuthenticate,
} from '../../../src/auth/access-rule.ts';

// The public reads (issues 3 and 16); every other tool needs a token. That each registered tool
// is classified, and no other, is the compiler's to check (test/unit/auth/mcp-tool-name.test.ts).
const PUBLIC_TOOLS = ['search_stories', 'get_story', 'suggest_for_project', 'check_capability'];

describe('MCP access rule', () => {
  it.each(Object.keys(MCP_TOOL_ACCESS))('tools/call %s is anonymous only if it is a public read', (tool) => {
    expect(mcpAccess('tools/call', tool)).toBe(PUBLIC_TOOLS.includes(tool) ? 'anonymous' : 'token');
  });

  it('every public read is a tool', () => {
    expect(Object.keys(MCP_TOOL_ACCESS)).toEqual(expect.arrayContaining(PUBLIC_TOOLS));
  });

  it.each([
    'initialize',
    'ping',
    'server/discover',
    'tools/list',
    'resources/list',
    'resources/read',
    'resources/templates/list',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'notifications/initialized',
    'notifications/cancelled',
    'notifications/anything',
  ])('%s needs no token', (method) => {
    expect(mcpAccess(method)).toBe('anonymous');
  });

  it('classifies exactly the methods lorebook serves', () => {
    expect(Object.keys(MCP_METHOD_ACCESS).sort()).toEqual(
      [
        'completion/complete',
        'initialize',
        'ping',
        'prompts/get',
        'prompts/list',
        'resources/list',
        'resources/read',
        'server/discover',
        'resources/templates/list',
        'tools/call',
        'tools/list',
      ].sort(),
    );
  });

  it.each([undefined, 'unknown_tool', 'toString', '__proto__', 'SEARCH_STORIES'])(
    'tools/call of %s is an unknown tool, never a public one',
    (tool) => {
      expect(mcpAccess('tools/call', tool)).toBe('unknown_tool');
    },
  );

  it.each([
    'logging/setLevel',
    'sampling/createMessage',
    'resources/subscribe',
    '',
    'notifications',
    'Ping',
    'tools/list/extra',
    'toString',
    '__proto__',
  ])('%s is an unknown method (answered -32601, never run)', (method) => {
    expect(mcpAccess(method)).toBe('unknown_method');
  });

  it('a public tool name counts only in a tools/call', () => {
    expect(mcpAccess('resources/read', 'publish_story')).toBe('anonymous');
    expect(mcpAccess('tools/call', 'publish_story')).toBe('token');
  });
});

describe('HTTP access rule', () => {
  it.each([
    ['GET', '/v1/stories'],
    ['GET', '/v1/stories/:slug'],
    ['GET', '/v1/stories/:id'],
    ['HEAD', '/v1/stories/:slug'],
    ['get', '/v1/stories/'],
    ['GET', '/v1/openapi.json'],
    ['GET', RESOURCE_METADATA_PATH],
  ])('%s %s needs no token', (method, route) => {
    expect(httpRouteIsAnonymous(method, route)).toBe(true);
  });

  it.each([
    ['POST', '/v1/stories'],
    ['PUT', '/v1/stories/:slug'],
    ['POST', '/v1/stories/:slug/visibility'],
    ['PUT', '/v1/stories/:slug/visibility'],
    ['POST', '/v1/stories/:slug/reproduced'],
    ['PUT', '/v1/stories/:slug/reproduced'],
    ['DELETE', '/v1/stories/:slug/reproduced'],
    ['POST', '/v1/stories/:slug/checked'],
    ['PUT', '/v1/stories/:slug/checked'],
    ['GET', '/v1/notifications'],
    ['POST', '/v1/notifications/read'],
    ['DELETE', '/v1/stories/:slug'],
    ['PATCH', '/v1/stories/:slug'],
    ['OPTIONS', '/v1/stories'],
    ['GET', '/v1/stories/:slug/history'],
    ['GET', '/v1/unknown'],
    ['GET', '/v1'],
    ['POST', '/mcp'],
    ['GET', '/v1/stories/search/:x'],
  ])('%s %s needs a token', (method, route) => {
    expect(httpRouteIsAnonymous(method, route)).toBe(false);
  });

  it('lists its anonymous routes as METHOD pattern: reads, and the one POST that only reads its body', () => {
    for (const route of ANONYMOUS_HTTP_ROUTES) expect(route).toMatch(/^GET \/|^POST \/v1\/capability$/);
  });

  it('POST /v1/capability (check_capability) answers without a token', () => {
    expect(httpRouteIsAnonymous('POST', '/v1/capability')).toBe(true);
  });
});

describe('WWW-Authenticate (RFC 6750, RFC 9728)', () => {
  it('points at the protected-resource metadata', () => {
    expect(wwwAuthenticate('http://127.0.0.1:8787')).toBe(
      'Bearer resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource"',
    );
  });

  it('drops a trailing slash of the base and adds the error code when a token was refused', () => {
    expect(wwwAuthenticate('https://lorebook.example/', 'invalid_token')).toBe(
      'Bearer resource_metadata="https://lorebook.example/.well-known/oauth-protected-resource", error="invalid_token"',
    );
  });

  it('cannot be broken out of its quotes', () => {
    expect(wwwAuthenticate('http://x', 'a", b="c')).toBe(
      'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource", error="a, b=c"',
    );
  });
});
