// The real handlers/http.ts, driven by synthetic Lambda Function URL events (payload 2.0) against
// DynamoDB Local: the MCP SDK Client talks to it through a fetch that turns each request into an
// event and the handler's result back into a Response. No server, no mock.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../../../handlers/http.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { FUNCTION_URL, functionUrlFetch } from '../../helpers/function-url.ts';
import { answerOf } from '../../helpers/lorebook-server.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('lambda-http-handler');
const logs: string[] = [];
let handler: HttpHandler;
let token: string;
const clients: Client[] = [];

beforeAll(async () => {
  handler = createHttpHandler({
    env: {
      LOREBOOK_DDB_ENDPOINT: testEndpoint(),
      LOREBOOK_TABLE: app.ctx().store.tableName,
      LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000',
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000',
    },
    log: (line) => void logs.push(line),
  });
  token = (await createToken(app.ctx(), { handle: 'alice', expiresInSeconds: 3600 })).token;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function mcpThroughFunctionUrl(options: { token?: string; sourceIp?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'lorebook-lambda-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${FUNCTION_URL}/mcp`), {
    fetch: functionUrlFetch(handler, options.sourceIp === undefined ? {} : { sourceIp: options.sourceIp }),
    requestInit: options.token === undefined ? {} : { headers: { Authorization: `Bearer ${options.token}` } },
  });
  await client.connect(transport);
  // Caches each tool's outputSchema, so every answer below is validated against it.
  await client.listTools();
  clients.push(client);
  return client;
}

describe('handlers/http.ts behind a Function URL', () => {
  it('an MCP client publishes, replays the publish with its op_id (same answer, replayed, nothing changed) and reads the story', async () => {
    const client = await mcpThroughFunctionUrl({ token });
    const markdown = storyTitled('Published through a Function URL');
    const first = answerOf<{ slug: string; revision: number; replayed?: boolean }>(
      await client.callTool({ name: 'publish_story', arguments: { markdown, op_id: 'op-lambda-publish-1' } }),
    );
    expect(first.slug).toMatch(/published-through-a-function-url$/);
    expect(first.revision).toBe(1);
    expect(first.replayed).not.toBe(true);
    const before = await app.allItems();

    const replay = answerOf(await client.callTool({ name: 'publish_story', arguments: { markdown, op_id: 'op-lambda-publish-1' } }));
    expect(replay).toEqual({ ...first, replayed: true });
    // Rate windows count every call, so they are the only items allowed to move.
    const withoutRate = (items: Record<string, unknown>[]) => items.filter((item) => !String(item.PK).startsWith('RATE#'));
    expect(withoutRate(await app.allItems())).toEqual(withoutRate(before));

    const story = answerOf<{ slug: string; title: string; revision: number }>(
      await client.callTool({ name: 'get_story', arguments: { slug: first.slug } }),
    );
    expect(story).toMatchObject({ slug: first.slug, title: 'Published through a Function URL', revision: 1 });
  });

  it('the same publish sent 16 times at once through the Function URL is one story, one answer, fifteen replays', async () => {
    const client = await mcpThroughFunctionUrl({ token });
    const markdown = storyTitled('Sixteen at once through a Function URL');
    const answers = await Promise.all(
      Array.from({ length: 16 }, async () =>
        answerOf<{ slug: string; replayed?: boolean }>(
          await client.callTool({ name: 'publish_story', arguments: { markdown, op_id: 'op-lambda-sixteen' } }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
    for (const answer of answers) expect({ ...answer, replayed: undefined }).toEqual({ ...answers[0], replayed: undefined });
    const slug = answers[0]?.slug as string;
    const items = (await app.allItems()).filter((item) => item.PK === `STORY#${slug}`);
    expect(items.map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001']);
  });

  it('the context is built once per cold start, on the first event, with the Function URL as base URL', async () => {
    const client = await mcpThroughFunctionUrl();
    for (let call = 0; call < 5; call += 1) await client.ping();
    const coldStarts = logs.filter((line) => line.includes('http cold start'));
    expect(coldStarts).toEqual([expect.stringContaining(`base URL ${FUNCTION_URL}`)]);
    const metadata = await functionUrlFetch(handler)(`${FUNCTION_URL}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(((await metadata.json()) as { resource: string }).resource).toBe(`${FUNCTION_URL}/mcp`);
  });

  it("anonymous calls are rate limited by the Function URL event's sourceIp", async () => {
    const client = await mcpThroughFunctionUrl({ sourceIp: '198.51.100.23' });
    await client.callTool({ name: 'search_stories', arguments: { query: 'function url' } });
    const windows = (await app.allItems()).filter((item) => String(item.PK).startsWith('RATE#'));
    expect(windows.map((item) => item.PK)).toContain('RATE#ip:198.51.100.23');
  });

  it('the REST API through the Function URL: a text/markdown publish replayed with its Idempotency-Key answers the same, marked as a replay', async () => {
    const send = () =>
      functionUrlFetch(handler)(`${FUNCTION_URL}/v1/stories`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'text/markdown; charset=utf-8',
          'Idempotency-Key': 'op-lambda-rest-1',
        },
        body: storyTitled('Published as markdown through a Function URL'),
      });
    const first = await send();
    expect(first.status).toBe(201);
    const body = (await first.json()) as { slug: string };
    expect(first.headers.get('location')).toContain(body.slug);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual({ ...body, replayed: true });
  });

  it('a request for another host is refused before anything runs', async () => {
    const answer = await functionUrlFetch(handler)('https://attacker.example/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(403);
  });
});
