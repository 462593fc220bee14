// check_capability over both surfaces on the real server: POST /v1/capability (text/markdown and
// JSON) and the MCP tool through the SDK client (which checks each answer against the listed
// output schema), anonymous, bounded, rate limited by the anonymous budget, storing nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { scanStory, scanText } from '../../src/domain/capability/scan.ts';
import { MAX_SCAN_TEXT_BYTES } from '../../src/domain/capability/scan-limits.ts';
import { PIPED_INSTALL, storyPipingToShell } from '../helpers/capability-stories.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';

const ANONYMOUS_LIMIT = 3;
const server = useLorebookServer('e2e-check-capability');
const limited = useLorebookServer('e2e-check-capability-limited', { config: { anonymousRateLimitPerMinute: ANONYMOUS_LIMIT } });

const STEPS = `Run this:\n\n\`\`\`sh\n${PIPED_INSTALL}\nnpm test\n\`\`\`\n`;

const post = (body: string, type: string) => server.fetch('/v1/capability', { method: 'POST', headers: { 'content-type': type }, body });

/** Everything stored but the rate windows, which every call counts in. */
const storedState = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

describe('check_capability answers the scanner report, anonymously', () => {
  it('text/markdown, JSON {text} and the MCP tool answer the same report of the text, scanned as text', async () => {
    const expected = { ...scanText(STEPS), scanned_as: 'text' };
    expect(expected.tier).toBe('T4');
    const asMarkdown = await post(STEPS, 'text/markdown');
    expect(asMarkdown.status).toBe(200);
    expect(await asMarkdown.json()).toEqual(expected);
    expect(await (await post(JSON.stringify({ text: STEPS }), 'application/json')).json()).toEqual(expected);
    const client = await server.mcp();
    await client.listTools();
    expect(answerOf(await client.callTool({ name: 'check_capability', arguments: { text: STEPS } }))).toEqual(expected);
  });

  it('a whole story is scanned as publish scans it: scanned_as "story", the same sha256 get_story shows once published', async () => {
    const markdown = storyPipingToShell('Checked before publishing');
    const checked = (await (await post(markdown, 'text/markdown')).json()) as { scanned_as: string; sha256: string };
    expect(checked).toEqual({ ...scanStory(markdown), scanned_as: 'story' });
    const { account } = await server.token('alice');
    const { slug } = await publishStory(server.app.ctx(), { account, handle: 'alice' }, { markdown });
    const story = (await (await server.fetch(`/v1/stories/${slug}`)).json()) as { capability: { sha256: string } };
    expect(story.capability.sha256).toBe(checked.sha256);
  });

  it('a story that would not publish is scanned whole, as text', async () => {
    const notAStory = `---\ntitle: no date\n---\n\n${STEPS}`;
    expect(await (await post(notAStory, 'text/markdown')).json()).toMatchObject({ scanned_as: 'text', tier: 'T4' });
  });
});

describe('check_capability refuses bad input with a typed error and stores nothing', () => {
  it(`text past ${MAX_SCAN_TEXT_BYTES} bytes is 413 payload_too_large over HTTP and MCP`, async () => {
    const before = await storedState();
    const tooLong = 'a'.repeat(MAX_SCAN_TEXT_BYTES + 1);
    const refused = await post(tooLong, 'text/markdown');
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({
      code: 'payload_too_large',
      retryable: false,
      details: { limit_bytes: MAX_SCAN_TEXT_BYTES },
    });
    const client = await server.mcp();
    expect(refusalOf(await client.callTool({ name: 'check_capability', arguments: { text: tooLong } }))).toMatchObject({
      code: 'payload_too_large',
    });
    expect(await storedState()).toEqual(before);
  });

  it('a JSON body without text is 422 validation_failed naming the field', async () => {
    const refused = await post(JSON.stringify({ steps: STEPS }), 'application/json');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'validation_failed', details: { fields: { text: expect.any(String) } } });
  });
});

describe('check_capability is counted against the anonymous budget', () => {
  it(`the ${ANONYMOUS_LIMIT + 1}th anonymous check in a minute is 429 rate_limited with retry_after_ms`, async () => {
    const into = limited.app.ctx().store.now() % 60_000;
    // Early in a window on the store clock, so a minute boundary cannot split the calls.
    if (into > 5_000) limited.app.advance(60_000 - into + 10);
    const call = () => limited.fetch('/v1/capability', { method: 'POST', headers: { 'content-type': 'text/markdown' }, body: STEPS });
    for (let i = 0; i < ANONYMOUS_LIMIT; i += 1) expect((await call()).status, `call ${i + 1}`).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', retry_after_ms: expect.any(Number) });
  });
});

describe('check_capability by URL: signed-in callers only, through the SSRF-safe fetch', () => {
  // A loopback server that counts connections: a refused URL must never reach it.
  let target: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    target = createServer((_request, response) => response.end(STEPS));
    target.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
  });
  afterAll(async () => {
    target.closeAllConnections();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  const postJson = (body: unknown, token?: string) =>
    server.fetch('/v1/capability', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  it('an anonymous url is 401 unauthenticated and fetches nothing', async () => {
    const refused = await postJson({ url: `https://127.0.0.1:${port}/steps.md` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthenticated' });
    expect(connections).toBe(0);
  });

  it.each([
    ['loopback with a port', () => `https://127.0.0.1:${port}/steps.md`],
    ['loopback by name', () => `https://localhost:${port}/steps.md`],
    ['plain http', () => `http://127.0.0.1:${port}/steps.md`],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data/'],
  ])("a signed-in caller's %s url is 422 validation_failed on url, without a connection", async (_name, url) => {
    const { token } = await server.token('url-checker');
    const refused = await postJson({ url: url() }, token);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'validation_failed', details: { fields: { url: expect.any(String) } } });
    expect(connections).toBe(0);
  });

  it('text and url together are 422 validation_failed: exactly one is read', async () => {
    const refused = await postJson({ text: STEPS, url: 'https://example.com/steps.md' });
    expect(refused.status).toBe(422);
  });
});
