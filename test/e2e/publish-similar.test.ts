// `similar` in the publish answer over the real server: POST /v1/stories (text/markdown, as
// worklore's skill sends it) and publish_story through the MCP SDK client, whose answer is checked
// against the tool's listed outputSchema. An Idempotency-Key replay, a repeat and 16 parallel
// deliveries answer the first answer's bytes, even after a similar story was published between.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { type TopicStory, topicStory } from '../helpers/topic-stories.ts';

const server = useLorebookServer('e2e-publish-similar');

let alice: { token: string };
let bob: { token: string };
beforeAll(async () => {
  alice = await server.token('alice');
  bob = await server.token('bob');
});

interface Similar {
  slug: string;
  type: string;
  relation: string;
  story_url: string;
}

async function publishOverHttp(who: { token: string }, markdown: string, headers: Record<string, string> = {}) {
  const response = await server.fetch('/v1/stories', {
    method: 'POST',
    headers: { Authorization: `Bearer ${who.token}`, 'Content-Type': 'text/markdown', ...headers },
    body: markdown,
  });
  const text = await response.text();
  const body = JSON.parse(text) as { slug: string; similar: Similar[]; replayed?: true };
  return { status: response.status, text, body };
}

/** The answer's bytes without the replay flag (JSON.parse keeps the order the server wrote). */
const bytesWithoutFlag = (text: string): string => {
  const { replayed: _flag, ...answer } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(answer);
};

const redis = (title: string, extra: Partial<TopicStory> = {}): string =>
  topicStory({ title, tags: ['redis', 'eviction'], stack: ['redis', 'go'], summary: 'Redis evicted the session keys first.', ...extra });

describe('POST /v1/stories answers similar', () => {
  it('lists the earlier similar story with its absolute URL; a replay, a repeat and 16 parallel deliveries answer the first bytes', async () => {
    const a = await publishOverHttp(alice, redis('Redis eviction policy set to volatile-lru'));
    expect(a.status).toBe(201);
    expect(a.body.similar).toEqual([]);

    const bMarkdown = redis('Redis sessions kept by moving caches to another database');
    const b = await publishOverHttp(bob, bMarkdown, { 'Idempotency-Key': 'op-http-similar' });
    expect(b.body.similar).toEqual([
      expect.objectContaining({ slug: a.body.slug, relation: 'related', story_url: `${server.baseUrl()}/s/${a.body.slug}` }),
    ]);
    const c = await publishOverHttp(alice, redis('Redis maxmemory raised before eviction started'));
    expect(c.body.similar.map((story) => story.slug).sort()).toEqual([a.body.slug, b.body.slug].sort());

    const replay = await publishOverHttp(bob, bMarkdown, { 'Idempotency-Key': 'op-http-similar' });
    expect(replay.status).toBe(201);
    expect(replay.body.replayed).toBe(true);
    expect(bytesWithoutFlag(replay.text)).toBe(b.text);
    const repeat = await publishOverHttp(bob, bMarkdown);
    expect(repeat.text).toBe(b.text);

    const parallel = await Promise.all(
      Array.from({ length: 16 }, () => publishOverHttp(bob, bMarkdown, { 'Idempotency-Key': 'op-http-16' })),
    );
    for (const answer of parallel) expect(bytesWithoutFlag(answer.text)).toBe(b.text);
  });
});

describe('publish_story over MCP answers similar', () => {
  const fonts = (title: string, type: 'success' | 'fail') =>
    topicStory({
      title,
      type,
      tags: ['fonts', 'chromium'],
      stack: ['debian', 'chromium'],
      summary: 'Headless Chromium drew boxes for text.',
    });

  it('a fail story gets the success stories that may answer it, as the listed outputSchema declares', async () => {
    const fixed = await publishOverHttp(alice, fonts('Chromium fonts fixed by installing fonts-liberation', 'success'));
    await publishOverHttp(alice, fonts('Chromium fonts still boxes after a fontconfig rebuild', 'fail'));
    const mcp = await server.mcp(bob.token);
    const asked = answerOf<{ similar: Similar[] }>(
      await mcp.callTool({ name: 'publish_story', arguments: { markdown: fonts('Chromium draws boxes in our Debian CI', 'fail') } }),
    );
    expect(asked.similar).toEqual([
      expect.objectContaining({
        slug: fixed.body.slug,
        type: 'success',
        relation: 'may_answer',
        story_url: `${server.baseUrl()}/s/${fixed.body.slug}`,
      }),
    ]);
  });

  it('tools/list and the OpenAPI document declare similar on the publish answer only', async () => {
    const { tools } = await (await server.mcp()).listTools();
    const answerProperties = (name: string) =>
      (tools.find((tool) => tool.name === name)?.outputSchema as unknown as { anyOf: Array<{ properties: Record<string, unknown> }> })
        .anyOf[0]?.properties;
    expect(answerProperties('publish_story')).toHaveProperty('similar');
    expect(answerProperties('edit_story')).not.toHaveProperty('similar');
    const document = (await (await server.fetch('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(document.paths['/v1/stories']?.post)).toContain('may_answer');
  });
});
