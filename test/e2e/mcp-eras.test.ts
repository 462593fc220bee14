// Both MCP protocol eras on one /mcp, against one real server: the SDK 1.x Client speaks
// 2025-11-25 (initialize handshake), a raw-fetch client speaks 2026-07-28 (no handshake, a `_meta`
// envelope and Mcp-* headers on every request). Each publishes and reads the other's story; the
// 2026-07-28 rules — server/discover, header validation (-32020), unsupported revisions (-32022),
// ttlMs/cacheScope, resultType, a stable tools/list — are checked here, and 2025 answers stay as
// they were (no 2026 fields).
import { describe, expect, it } from 'vitest';
import { SKILL_UPDATE_META_KEY } from '../../src/http/mcp/skill-update.ts';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { MODERN, type ModernRequest, modernRpc } from '../helpers/modern-mcp.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-mcp-eras');
const modern = (request: ModernRequest) => modernRpc(server.baseUrl(), request);

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

describe('one server, both eras', () => {
  it('the SDK 1.x Client (2025-11-25) and a 2026-07-28 client each publish, and each reads the other’s story', async () => {
    const { token } = await server.token('era-author');
    const legacy = await server.mcp(token);

    const byLegacy = answerOf<{ slug: string }>(
      await legacy.callTool({ name: 'publish_story', arguments: { markdown: storyTitled('Legacy client wrote this') } }),
    );
    const publishedModern = await modern({
      method: 'tools/call',
      params: { name: 'publish_story', arguments: { markdown: storyTitled('Modern client wrote this') } },
      token,
    });
    expect(publishedModern.status).toBe(200);
    expect(publishedModern.body?.result?.resultType).toBe('complete');
    const byModern = publishedModern.body?.result?.structuredContent as { slug: string };
    expect(byModern.slug).toMatch(/modern-client-wrote-this$/);

    const readByModern = await modern({ method: 'tools/call', params: { name: 'get_story', arguments: { slug: byLegacy.slug } } });
    expect((readByModern.body?.result?.structuredContent as { title: string }).title).toBe('Legacy client wrote this');
    const readByLegacy = answerOf<{ title: string }>(await legacy.callTool({ name: 'get_story', arguments: { slug: byModern.slug } }));
    expect(readByLegacy.title).toBe('Modern client wrote this');

    // The story resource too, in both eras: the markdown, and cache fields only for 2026-07-28.
    const uri = `lorebook://story/${byLegacy.slug}`;
    const modernRead = await modern({ method: 'resources/read', params: { uri } });
    expect((modernRead.body?.result?.contents as Array<{ text: string }>)[0]?.text).toContain('Legacy client wrote this');
    const legacyRead = await legacy.readResource({ uri });
    // The same story in both eras; only the markers' nonce, drawn for each answer, differs.
    const withoutNonce = (text: string | undefined) => text?.replace(/[0-9a-f]{16}/g, 'nonce');
    expect(withoutNonce((legacyRead.contents[0] as { text: string }).text)).toEqual(
      withoutNonce((modernRead.body?.result?.contents as Array<{ text: string }>)[0]?.text),
    );
    expect(Object.keys(legacyRead).filter((key) => ['ttlMs', 'cacheScope', 'resultType'].includes(key))).toEqual([]);
  });

  it('a 2026-07-28 write delivered twice answers the same story and publishes it once', async () => {
    const { token } = await server.token('era-twice');
    const publish = () =>
      modern({ method: 'tools/call', params: { name: 'publish_story', arguments: { markdown: storyTitled('Modern twice') } }, token });
    const first = (await publish()).body?.result?.structuredContent as { slug: string; revision: number };
    const second = (await publish()).body?.result?.structuredContent as { slug: string; revision: number };
    expect(second.slug).toBe(first.slug);
    expect(second.revision).toBe(first.revision);
  });
});

describe('2026-07-28: discovery and the envelope', () => {
  it('server/discover needs no initialize and names the revision, capabilities, identity and instructions', async () => {
    const { status, body } = await modern({ method: 'server/discover' });
    expect(status).toBe(200);
    expect(body?.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      resultType: 'complete',
      ttlMs: HOUR_MS,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'lorebook' } },
    });
    expect(body?.result?.instructions).toMatch(/lorebook holds short, honest stories/);
  });

  it('an unsupported revision is -32022 with the supported list, before any token is asked for', async () => {
    // publish_story without a token would be 401 in a served revision: the revision is judged first.
    const { status, body } = await modern({
      method: 'tools/call',
      params: { name: 'publish_story', arguments: { markdown: storyTitled('Never published') } },
      protocolVersion: '2099-01-01',
    });
    expect(status).toBe(400);
    expect(body?.error?.code).toBe(-32022);
    expect(body?.error?.data).toEqual({ supported: [MODERN], requested: '2099-01-01' });
    server.search().invalidate();
    const search = await modern({ method: 'tools/call', params: { name: 'search_stories', arguments: { query: 'Never published' } } });
    expect((search.body?.result?.structuredContent as { total: number }).total).toBe(0);
  });

  it.each([
    ['Mcp-Method', { method: 'tools/list', headers: { 'Mcp-Method': 'prompts/list' } }],
    ['Mcp-Name', { method: 'tools/call', params: { name: 'search_stories', arguments: {} }, headers: { 'Mcp-Name': 'get_story' } }],
    ['MCP-Protocol-Version', { method: 'tools/list', headers: { 'MCP-Protocol-Version': '2025-11-25' } }],
  ] satisfies Array<[string, ModernRequest]>)(
    'a %s header that disagrees with the body is -32020 and runs nothing',
    async (_header, request) => {
      const { status, body } = await modern(request);
      expect(status).toBe(400);
      expect(body?.error?.code).toBe(-32020);
      expect(body?.result).toBeUndefined();
    },
  );

  it('a write whose Mcp-Name names another tool is -32020 and publishes nothing', async () => {
    const { token } = await server.token('era-mismatch');
    const markdown = storyTitled('Mismatched header never published');
    const { status, body } = await modern({
      method: 'tools/call',
      params: { name: 'publish_story', arguments: { markdown } },
      headers: { 'Mcp-Name': 'search_stories' },
      token,
    });
    expect([status, body?.error?.code]).toEqual([400, -32020]);
    server.search().invalidate();
    const search = await modern({ method: 'tools/call', params: { name: 'search_stories', arguments: { query: 'Mismatched header' } } });
    expect((search.body?.result?.structuredContent as { total: number }).total).toBe(0);
  });

  it('a missing Mcp-Name on a named call is refused as a header mismatch too', async () => {
    const { body } = await modern({
      method: 'tools/call',
      params: { name: 'search_stories', arguments: {} },
      headers: { 'Mcp-Name': undefined },
    });
    expect(body?.error?.code).toBe(-32020);
  });

  it('per-request _meta: a request carries its client, no session is kept, and skill_update joins the serverInfo in _meta', async () => {
    const { body } = await modern({ method: 'tools/list', headers: { 'X-Lorebook-Skill': '0.0.1' } });
    expect(body?.result?._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'lorebook' });
    expect(body?.result?._meta?.[SKILL_UPDATE_META_KEY]).toMatchObject({ url: `${server.baseUrl()}/skill.md` });
  });

  it('an unknown method is -32601 with HTTP 404 and an unknown tool -32602 in-band, anonymously, in this era too', async () => {
    const method = await modern({ method: 'logging/setLevel', params: { level: 'info' } });
    expect([method.status, method.body?.error?.code]).toEqual([404, -32601]);
    const tool = await modern({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    expect([tool.status, tool.body?.error?.code]).toEqual([200, -32602]);
  });
});

describe('resource not found, both eras', () => {
  it('names the uri it could not find in data (SEP-2164), beside the typed body, as -32602 in both eras', async () => {
    const uri = 'lorebook://story/2026-01-01-nothing-here';
    const modernMiss = await modern({ method: 'resources/read', params: { uri } });
    expect(modernMiss.body?.error?.code).toBe(-32602);
    expect(modernMiss.body?.error?.data).toMatchObject({ uri, code: 'not_found', retryable: false });
    const legacyMiss = await (await server.mcp()).readResource({ uri }).then(
      () => undefined,
      (error: { code: number; data: unknown }) => error,
    );
    expect(legacyMiss?.code).toBe(-32602);
    expect(legacyMiss?.data).toMatchObject({ uri, code: 'not_found' });
  });
});

describe('2026-07-28: cacheable results', () => {
  it.each([
    ['tools/list', {}, HOUR_MS],
    ['prompts/list', {}, HOUR_MS],
    ['resources/templates/list', {}, HOUR_MS],
    ['resources/read', { uri: 'lorebook://guide' }, HOUR_MS],
    // The feed moves with every publish.
    ['resources/list', {}, MINUTE_MS],
  ] as const)('%s says ttlMs and cacheScope (public: the same answer for every caller)', async (method, params, ttlMs) => {
    const { body } = await modern({ method, params });
    expect(body?.result).toMatchObject({ resultType: 'complete', ttlMs, cacheScope: 'public' });
  });

  it('a story resource is cached a minute, not an hour: it can be edited or hidden at any time', async () => {
    const { token } = await server.token('era-cache');
    const published = await modern({
      method: 'tools/call',
      params: { name: 'publish_story', arguments: { markdown: storyTitled('Cached a minute') } },
      token,
    });
    const { slug } = published.body?.result?.structuredContent as { slug: string };
    const { body } = await modern({ method: 'resources/read', params: { uri: `lorebook://story/${slug}` } });
    expect(body?.result).toMatchObject({ ttlMs: MINUTE_MS, cacheScope: 'public' });
  });

  it('tools/list is the same list in the same order on every call and in both eras', async () => {
    const names = async () => ((await modern({ method: 'tools/list' })).body?.result?.tools as Array<{ name: string }>).map((t) => t.name);
    const first = await names();
    expect(first).toEqual(TOOLS.map((tool) => tool.name));
    expect(await names()).toEqual(first);
    const legacy = await server.mcp();
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(first);
  });

  it('2025-11-25 list and read answers carry none of the 2026-07-28 fields', async () => {
    const legacy = await server.mcp();
    const answers = [await legacy.listTools(), await legacy.listResources(), await legacy.readResource({ uri: 'lorebook://guide' })];
    for (const answer of answers) {
      expect(Object.keys(answer).filter((key) => ['ttlMs', 'cacheScope', 'resultType'].includes(key))).toEqual([]);
    }
  });
});
