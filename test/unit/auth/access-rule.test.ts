import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_HTTP_ROUTES,
  MCP_TOOL_ACCESS,
  RESOURCE_METADATA_PATH,
  httpRouteIsAnonymous,
  mcpMethodIsAnonymous,
  wwwAuthenticate,
} from '../../../src/auth/access-rule.ts';

// The tools of issue 3, each with the access the issue gives it.
const ISSUE_TOOLS = {
  search_stories: true,
  get_story: true,
  suggest_for_project: true,
  list_notifications: false,
  publish_story: false,
  edit_story: false,
  report_reproduction: false,
  withdraw_reproduction: false,
  report_check: false,
  set_visibility: false,
  mark_notifications_read: false,
} as const;

describe('MCP access rule', () => {
  it('classifies every tool of the issue, and no other', () => {
    expect(Object.keys(MCP_TOOL_ACCESS).sort()).toEqual(Object.keys(ISSUE_TOOLS).sort());
  });

  it.each(Object.entries(ISSUE_TOOLS))('tools/call %s is anonymous: %s', (tool, anonymous) => {
    expect(mcpMethodIsAnonymous('tools/call', tool)).toBe(anonymous);
  });

  it.each(['initialize', 'ping', 'tools/list', 'notifications/initialized', 'notifications/cancelled', 'notifications/anything'])(
    '%s needs no token',
    (method) => {
      expect(mcpMethodIsAnonymous(method)).toBe(true);
    },
  );

  it.each([
    ['tools/call', undefined],
    ['tools/call', 'unknown_tool'],
    ['tools/call', 'toString'],
    ['tools/call', '__proto__'],
    ['tools/call', 'SEARCH_STORIES'],
    ['resources/list', undefined],
    ['resources/read', undefined],
    ['prompts/list', undefined],
    ['prompts/get', undefined],
    ['completion/complete', undefined],
    ['logging/setLevel', undefined],
    ['sampling/createMessage', undefined],
    ['', undefined],
    ['notifications', undefined],
    ['Ping', undefined],
    ['tools/list/extra', undefined],
  ])('%s %s defaults to needing a token', (method, tool) => {
    expect(mcpMethodIsAnonymous(method, tool)).toBe(false);
  });

  it('a public tool name is anonymous only as a tools/call', () => {
    expect(mcpMethodIsAnonymous('resources/read', 'search_stories')).toBe(false);
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

  it('lists its anonymous routes as METHOD pattern', () => {
    for (const route of ANONYMOUS_HTTP_ROUTES) expect(route).toMatch(/^GET \//);
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
