// The MCP edge: what answers without a token, what needs one (401 + WWW-Authenticate), batches
// refused whole, GET/DELETE 405, foreign Origin and Host refused, and refusals as typed isError
// results the SDK client hands back.
import { request as httpRequest } from 'node:http';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { MCP_TOOL_ACCESS, MCP_TOOL_SCOPE } from '../../src/auth/access-rule.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const ALLOWED_ORIGIN = 'https://app.example';
const server = useLorebookServer('e2e-mcp-access', { allowedOrigins: [ALLOWED_ORIGIN] });

// Derived from the access rule, whose tables the compiler holds to every registered tool
// (src/auth/mcp-tool-name.ts): a write needs lorebook:write, every other tool only reads.
const WRITE_TOOLS: string[] = Object.entries(MCP_TOOL_SCOPE)
  .filter(([, scope]) => scope === 'lorebook:write')
  .map(([name]) => name);
const READ_TOOLS = Object.keys(MCP_TOOL_ACCESS).filter((name) => !WRITE_TOOLS.includes(name));
const TOKEN_TOOLS = Object.keys(MCP_TOOL_SCOPE);

const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

/** One raw JSON-RPC POST, as any client would send it. */
function rpc(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return server.fetch('/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const publishCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'publish_story', arguments: { markdown: storyTitled('Smuggled in a batch') } },
});

let aliceToken: string;
beforeAll(async () => {
  aliceToken = (await server.token('alice')).token;
});

describe('without a token', () => {
  it('tools/list answers every tool, each with an output schema that declares replayed and honest annotations', async () => {
    const client = await server.mcp();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      const answer = (tool.outputSchema as unknown as { anyOf: Array<{ properties: Record<string, unknown> }> }).anyOf[0];
      expect(answer?.properties, tool.name).toHaveProperty('replayed');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_TOOLS.includes(tool.name));
      expect(tool.annotations?.idempotentHint, tool.name).toBe(true);
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.openWorldHint, tool.name).toBe('boolean');
      expect(tool.description, tool.name).toMatch(/Do not call it/);
    }
  });

  it("every write tool's description says op_id is for apps replaying queued requests and a model must not invent one", async () => {
    const { tools } = await (await server.mcp()).listTools();
    for (const tool of tools.filter((t) => WRITE_TOOLS.includes(t.name))) {
      expect(tool.description, tool.name).toMatch(/op_id.*apps replaying queued requests.*must not invent/);
      expect(tool.description, tool.name).toMatch(/key/);
    }
  });

  it('every input field of every tool carries a description, nested fields too', async () => {
    const { tools } = await (await server.mcp()).listTools();
    const undescribed = (schema: Record<string, unknown>, path: string): string[] => {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.entries(properties).flatMap(([name, field]) => [
        ...(typeof field.description === 'string' && field.description !== '' ? [] : [`${path}.${name}`]),
        ...(field.type === 'object' ? undescribed(field, `${path}.${name}`) : []),
      ]);
    };
    expect(tools.flatMap((tool) => undescribed(tool.inputSchema as Record<string, unknown>, tool.name))).toEqual([]);
  });

  it('a public read tool answers', async () => {
    const client = await server.mcp();
    const answer = answerOf<{ stories: unknown[]; total: number }>(await client.callTool({ name: 'search_stories', arguments: {} }));
    expect(answer).toMatchObject({ stories: expect.any(Array), total: expect.any(Number) });
  });

  it('tools/call of a write tool is 401 with WWW-Authenticate pointing at the protected-resource metadata, and writes nothing', async () => {
    const before = await observable();
    const response = await rpc(publishCall(1));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.baseUrl()}/.well-known/oauth-protected-resource"`,
    );
    const body = (await response.json()) as { id: number; error: { data: { code: string } } };
    expect(body.id).toBe(1);
    expect(body.error.data.code).toBe('unauthenticated');
    expect(await observable()).toEqual(before);
  });

  it('every tool that needs a token (every write, list_notifications, list_drafts) is refused without one; the SDK client sees the call fail', async () => {
    const client = await server.mcp();
    expect(TOKEN_TOOLS).toEqual(expect.arrayContaining([...WRITE_TOOLS, 'list_notifications', 'list_drafts']));
    for (const name of TOKEN_TOOLS) {
      const response = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } });
      expect(response.status, name).toBe(401);
      await expect(client.callTool({ name, arguments: {} }), name).rejects.toThrow(/unauthenticated/);
    }
  });

  it('an unknown method is -32601 and an unknown tool -32602, as to a signed-in caller: nothing runs, so no token is asked for', async () => {
    const method = await rpc({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'lorebook://guide' } });
    expect(method.status).toBe(200);
    expect(((await method.json()) as { id: number; error: { code: number } }).error).toMatchObject({ code: -32601 });
    const tool = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } });
    expect(tool.status).toBe(200);
    expect(((await tool.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/delete_everything.*tools\/list/),
    });
  });

  it('the protected-resource metadata names the MCP resource and header bearer tokens', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await server.fetch(path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: `${server.baseUrl()}/mcp`,
        authorization_servers: [server.baseUrl()],
        bearer_methods_supported: ['header'],
        scopes_supported: ['lorebook:read', 'lorebook:write'],
        resource_name: 'lorebook',
      });
    }
  });
});

describe('a token that is sent must be live', () => {
  it('an unknown token is 401 invalid_token even for tools/list', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { Authorization: 'Bearer lbk_not_a_real_token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"$/);
  });
});

describe('JSON-RPC batches', () => {
  it('a batch hiding a tools/call beside a ping is refused whole (-32600) and nothing runs', async () => {
    const before = await observable();
    const response = await rpc([{ jsonrpc: '2.0', id: 5, method: 'ping' }, publishCall(6)]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number } };
    expect(body.error.code).toBe(-32600);
    expect(await observable()).toEqual(before);
  });

  it('a batch is refused with a token too, even when every message in it is harmless', async () => {
    const response = await rpc(
      [
        { jsonrpc: '2.0', id: 7, method: 'ping' },
        { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      ],
      {
        Authorization: `Bearer ${aliceToken}`,
      },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });
});

describe('the stateless transport', () => {
  it('GET and DELETE /mcp are 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await server.fetch('/mcp', { method, headers: { Accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
    }
  });
});

describe('DNS-rebinding protection', () => {
  it('an unknown web Origin is 403 on /mcp and /v1; a configured one and the server itself are served', async () => {
    const foreign = await rpc({ jsonrpc: '2.0', id: 9, method: 'ping' }, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await server.fetch('/v1/stories', { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    const allowed = await server.fetch('/v1/stories', { headers: { Origin: ALLOWED_ORIGIN } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect((await rpc({ jsonrpc: '2.0', id: 10, method: 'ping' }, { Origin: server.baseUrl() })).status).toBe(200);
  });

  it('a foreign Host header is 403; localhost on the same port is served', async () => {
    const port = new URL(server.baseUrl()).port;
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/stories', headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await statusFor(`evil.example:${port}`)).toBe(403);
    expect(await statusFor(`localhost:${port}`)).toBe(200);
  });
});

describe('refusals are tool results, never JSON-RPC errors', () => {
  it('a bad argument is an isError result with validation_failed naming the field, in structuredContent and as JSON text', async () => {
    const client = await server.mcp();
    const refusal = refusalOf(await client.callTool({ name: 'get_story', arguments: { slug: 42 } }));
    expect(refusal).toMatchObject({ code: 'validation_failed', retryable: false, details: { fields: { slug: expect.any(String) } } });
  });

  it('an unknown slug is not_found; an edit by someone else is forbidden', async () => {
    const { slug } = await publishStory(
      server.app.ctx(),
      { account: 'acct-owner', handle: 'owner' },
      { markdown: storyTitled('Owned elsewhere') },
    );
    const client = await server.mcp(aliceToken);
    expect(refusalOf(await client.callTool({ name: 'get_story', arguments: { slug: '2026-01-01-nothing-here' } })).code).toBe('not_found');
    const edit = await client.callTool({
      name: 'edit_story',
      arguments: { slug, markdown: storyTitled('Owned elsewhere'), kind: 'rephrase' },
    });
    expect(refusalOf(edit).code).toBe('forbidden');
  });

  it('an unknown tool is a protocol error (it was never listed)', async () => {
    const client = await server.mcp(aliceToken);
    const error = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});
