// worklore's MCP protocol checks, ported, against the real server: the handshake, the exact
// anonymous tool set and its hints, protocol errors where the spec names them (-32601, -32602,
// -32700) and isError results where it does not (SEP-1303), search semantics, Origin and method
// guards, repeated calls; and skill_update in a result's _meta for a client behind on the skill.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { MCP_TOOL_ACCESS } from '../../src/auth/access-rule.ts';
import { SKILL } from '../../src/domain/skill/skill-document.ts';
import { SKILL_UPDATE_META_KEY } from '../../src/http/mcp/skill-update.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const ALLOWED_ORIGIN = 'https://app.example';
const server = useLorebookServer('e2e-mcp-protocol', { allowedOrigins: [ALLOWED_ORIGIN] });
const AUTHOR = { account: 'acct-protocol', handle: 'protocol' };
const READ_TOOLS = Object.keys(MCP_TOOL_ACCESS).filter((tool) =>
  ['search_stories', 'get_story', 'suggest_for_project', 'check_capability', 'list_notifications', 'list_drafts'].includes(tool),
);
const FILLER_STORIES = 11;

interface RpcAnswer {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: { code: string } } } | null;
}

/** One raw JSON-RPC POST, as any client would send it; the body is sent as given when a string. */
async function rpc(body: unknown, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const response = await server.fetch('/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

const call = (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headers);

let token: string;
const skillClients: Client[] = [];
/** An SDK client that sends X-Lorebook-Skill on every request. */
async function clientWithSkill(version: string): Promise<Client> {
  const client = new Client({ name: 'lorebook-e2e-skill', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl()}/mcp`), { requestInit: { headers: { 'X-Lorebook-Skill': version } } }),
  );
  await client.listTools();
  skillClients.push(client);
  return client;
}

beforeAll(async () => {
  const ctx = server.app.ctx();
  token = (await server.token('protocol-caller')).token;
  for (let n = 0; n < FILLER_STORIES; n += 1) await publishStory(ctx, AUTHOR, { markdown: storyTitled(`Filler story number ${n}`) });
  await publishStory(ctx, AUTHOR, { markdown: storyTitled('Zephyrine quillback retries piled up') });
  await publishStory(ctx, AUTHOR, { markdown: storyTitled('Zephyrine counter doubled') });
  await publishStory(ctx, AUTHOR, { markdown: storyTitled('Quillback deploy timed out') });
  server.search().invalidate();
}, 120_000);

afterAll(async () => {
  await Promise.all(skillClients.map((client) => client.close()));
});

describe('the handshake', () => {
  it.each(['2025-06-18', '2025-11-25'])(
    'initialize echoes the requested version %s and names lorebook with its capabilities',
    async (version) => {
      const { status, body } = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect(status).toBe(200);
      expect(body?.result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: 'lorebook' },
        capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      });
    },
  );

  it('notifications/initialized is 202 with no body', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ status: 202, body: null });
  });

  it('ping answers an empty result', async () => {
    expect(await rpc({ jsonrpc: '2.0', id: 2, method: 'ping' })).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 2, result: {} } });
  });
});

describe('tools/list without a token', () => {
  it('is exactly the access rule’s tools; reads are readOnlyHint true, writes false; every tool has an object inputSchema', async () => {
    const { body } = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const tools = (body?.result?.tools ?? []) as Array<{
      name: string;
      inputSchema?: { type?: string };
      annotations?: { readOnlyHint?: boolean };
    }>;
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_TOOL_ACCESS).sort());
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_TOOLS.includes(tool.name));
      expect(tool.inputSchema?.type, tool.name).toBe('object');
    }
  });
});

describe('errors where the spec puts them', () => {
  it('an anonymous write is 401 and publishes nothing', async () => {
    const { status, body } = await call('publish_story', { markdown: storyTitled('Anonymous attempt') });
    expect(status).toBe(401);
    expect(body?.error?.data?.code).toBe('unauthenticated');
    expect(
      (
        await answerOf<{ total: number }>(
          await (await server.mcp()).callTool({ name: 'search_stories', arguments: { query: 'anonymous attempt' } }),
        )
      ).total,
    ).toBe(0);
  });

  it.each([
    ['anonymous', {}],
    ['signed in', { withToken: true }],
  ])('an unknown method is -32601 and an unknown tool -32602 (%s)', async (_who, options) => {
    const headers: Record<string, string> = 'withToken' in options ? { Authorization: `Bearer ${token}` } : {};
    const method = await rpc({ jsonrpc: '2.0', id: 4, method: 'no/such/method' }, headers);
    expect([method.status, method.body?.id, method.body?.error?.code]).toEqual([200, 4, -32601]);
    const tool = await call('nope', {}, headers);
    expect([tool.status, tool.body?.error?.code]).toEqual([200, -32602]);
  });

  it('malformed JSON is 400 with -32700', async () => {
    const { status, body } = await rpc('{not valid json');
    expect([status, body?.error?.code]).toEqual([400, -32700]);
  });

  it('params of the wrong shape for a known method are -32602 naming each field, never -32603 (an internal error)', async () => {
    const initialize = await rpc({ jsonrpc: '2.0', id: 21, method: 'initialize', params: {} });
    expect([initialize.status, initialize.body?.error?.code]).toEqual([200, -32602]);
    expect(initialize.body?.error?.message).toMatch(/^Invalid params for initialize: params\.protocolVersion: .*params\.clientInfo: /);
    const read = await rpc({ jsonrpc: '2.0', id: 22, method: 'resources/read', params: { uri: 5 } });
    expect([read.body?.error?.code, read.body?.error?.message]).toEqual([-32602, expect.stringContaining('params.uri: ')]);
    const tool = await rpc({ jsonrpc: '2.0', id: 23, method: 'tools/call', params: { name: 'get_story', arguments: 5 } });
    expect([tool.body?.error?.code, tool.body?.error?.message]).toEqual([-32602, expect.stringContaining('params.arguments: ')]);
  });

  it('a missing argument is an isError result with readable text naming the field, not a protocol error', async () => {
    const { status, body } = await call('get_story', {});
    expect(status).toBe(200);
    expect(body?.error).toBeUndefined();
    const result = body?.result as unknown as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/validation_failed.*slug/);
  });

  it('an unknown slug is an isError result saying not found', async () => {
    const { body } = await call('get_story', { slug: '2026-01-01-no-such-story' });
    const result = body?.result as unknown as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/not_found.*No story .*2026-01-01-no-such-story.*is visible/);
  });
});

describe('search', () => {
  it('no match answers 0; an empty query the newest stories, capped at a page; several words are ANDed', async () => {
    const client = await server.mcp();
    const search = async (query: string) =>
      answerOf<{ stories: Array<{ title: string; published_at: string }>; total: number; cursor?: string }>(
        await client.callTool({ name: 'search_stories', arguments: { query } }),
      );
    expect(await search('zzznotarealkeyword')).toMatchObject({ stories: [], total: 0 });
    const newest = await search('');
    expect(newest.total).toBe(FILLER_STORIES + 3);
    expect(newest.stories.length).toBe(10);
    expect(newest.cursor).toEqual(expect.any(String));
    const times = newest.stories.map((story) => story.published_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await search('zephyrine quillback')).stories.map((story) => story.title)).toEqual(['Zephyrine quillback retries piled up']);
    expect((await search('zephyrine')).total).toBe(2);
  });

  it('suggest_for_project answers one to three stories', async () => {
    const answer = answerOf<{ suggestions: unknown[] }>(
      await (await server.mcp()).callTool({
        name: 'suggest_for_project',
        arguments: { context: 'a zephyrine service with quillback deploys' },
      }),
    );
    expect(answer.suggestions.length).toBeGreaterThanOrEqual(1);
    expect(answer.suggestions.length).toBeLessThanOrEqual(3);
  });
});

describe('the transport', () => {
  it('no Origin and an allowed Origin are served; a foreign one is 403', async () => {
    const ping = (headers: Record<string, string>) => rpc({ jsonrpc: '2.0', id: 5, method: 'ping' }, headers);
    expect((await ping({})).status).toBe(200);
    expect((await ping({ Origin: ALLOWED_ORIGIN })).status).toBe(200);
    expect((await ping({ Origin: 'https://evil.example.com' })).status).toBe(403);
  });

  it('GET /mcp is 405', async () => {
    expect((await server.fetch('/mcp', { headers: { Accept: 'text/event-stream' } })).status).toBe(405);
  });

  it('six repeated calls all succeed', async () => {
    const answers = [];
    for (let n = 0; n < 6; n += 1) answers.push(await rpc({ jsonrpc: '2.0', id: 40 + n, method: 'ping' }));
    expect(answers.map((answer) => [answer.status, answer.body?.result])).toEqual(Array.from({ length: 6 }, () => [200, {}]));
    const client = await server.mcp();
    for (let n = 0; n < 6; n += 1)
      expect((await client.callTool({ name: 'search_stories', arguments: { query: 'filler' } })).isError).toBeFalsy();
  });
});

describe('skill_update in _meta', () => {
  const expected = () => ({ version: SKILL.version, url: `${server.baseUrl()}/skill.md` });

  it('an older X-Lorebook-Skill gets _meta["dev.lorebook/skill_update"] on tool, list, resource and prompt results; the SDK client still validates structuredContent', async () => {
    const client = await clientWithSkill('0.0.1');
    const read = await client.callTool({ name: 'search_stories', arguments: { query: 'zephyrine' } });
    expect(read._meta?.[SKILL_UPDATE_META_KEY]).toEqual(expected());
    expect((read.structuredContent as { total: number }).total).toBe(2);
    const refused = await client.callTool({ name: 'get_story', arguments: { slug: '2026-01-01-no-such-story' } });
    expect(refusalOf(refused).code).toBe('not_found');
    expect(refused._meta?.[SKILL_UPDATE_META_KEY]).toEqual(expected());
    expect((await client.listTools())._meta?.[SKILL_UPDATE_META_KEY]).toEqual(expected());
    expect((await client.readResource({ uri: 'lorebook://access' }))._meta?.[SKILL_UPDATE_META_KEY]).toEqual(expected());
    expect((await client.getPrompt({ name: 'write_story' }))._meta?.[SKILL_UPDATE_META_KEY]).toEqual(expected());
  });

  it.each([
    ['the same version', () => SKILL.version],
    ['a newer version', () => '99.0.0'],
  ])('%s gets no skill_update', async (_what, version) => {
    const client = await clientWithSkill(version());
    const read = await client.callTool({ name: 'search_stories', arguments: { query: 'zephyrine' } });
    expect(read._meta).toBeUndefined();
    expect((await client.listTools())._meta).toBeUndefined();
  });

  it('no header gets no skill_update; a protocol error never carries one', async () => {
    expect((await rpc({ jsonrpc: '2.0', id: 6, method: 'tools/list' })).body?.result?._meta).toBeUndefined();
    const unknown = await rpc({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }, { 'X-Lorebook-Skill': '0.0.1' });
    expect(JSON.stringify(unknown.body)).not.toContain('skill_update');
  });
});
