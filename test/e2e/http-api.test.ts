// The /v1 API over real HTTP: publish as text/markdown or JSON, ETag/If-Match, list and search,
// notifications, errors as application/problem+json, and an OpenAPI document listing every route.
import { beforeAll, describe, expect, it } from 'vitest';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { openApiPath } from '../../src/http/v1/route.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { fixture, storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-http-api');

let alice: { token: string; account: string };
let bob: { token: string; account: string };
beforeAll(async () => {
  alice = await server.token('alice');
  bob = await server.token('bob');
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const json = (token: string) => ({ ...auth(token), 'Content-Type': 'application/json' });
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

/** A refusal must be a problem: the RFC 9457 members plus the lorebook error fields. */
async function problem(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    type: `urn:lorebook:problem:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    retryable: expect.any(Boolean),
  });
  expect(body.detail).toBe(body.message);
  return body;
}

describe('publish and edit over HTTP', () => {
  it('text/markdown publishes: 201 with Location and the revision as ETag; the same body again is the same answer', async () => {
    const markdown = storyTitled('Sent as markdown');
    const send = () =>
      server.fetch('/v1/stories', {
        method: 'POST',
        headers: { ...auth(alice.token), 'Content-Type': 'text/markdown; charset=utf-8' },
        body: markdown,
      });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe('/v1/stories/2026-10-14-sent-as-markdown');
    expect(first.headers.get('etag')).toBe('"1"');
    const body = await first.json();
    const before = await observable();
    const second = await send();
    expect(await second.json()).toEqual(body);
    expect(await observable()).toEqual(before);
  });

  it('JSON parts publish the same story as its markdown', async () => {
    const asMarkdown = await server.fetch('/v1/stories', {
      method: 'POST',
      headers: json(alice.token),
      body: JSON.stringify({ markdown: fixture('fail-open.md') }),
    });
    expect(asMarkdown.status).toBe(201);
    const parts = {
      title: "Agent can't make headless Chromium find its fonts after four attempts",
      date: '2026-11-02',
      tags: ['chromium', 'fonts', 'ci'],
      type: 'fail',
      status: 'open',
      reproducible: false,
      stack: ['debian', 'node'],
      narrative: 'Screenshots from our CI render every label as boxes. The same page looks fine on a laptop.',
      what_i_tried:
        '1. Installed fonts-dejavu — no change.\n2. Set FONTCONFIG_PATH to /etc/fonts — no change.\n3. Ran fc-cache -f before the tests — boxes became slightly different boxes.\n4. Switched to the new headless mode — same result.',
      what_i_need:
        'Which package or setting makes Debian\'s Chromium use system fonts when run as root in a container?\nA definite "it can\'t" is a useful answer too.',
    };
    const asParts = await server.fetch('/v1/stories', { method: 'POST', headers: json(alice.token), body: JSON.stringify({ parts }) });
    expect(await asParts.json()).toEqual(await asMarkdown.json());
  });

  it('PUT with If-Match of the read revision edits; a second PUT from the same stale ETag is 409 revision_conflict and writes nothing', async () => {
    const created = await server.fetch('/v1/stories', {
      method: 'POST',
      headers: json(alice.token),
      body: JSON.stringify({ markdown: storyTitled('Edited with etags') }),
    });
    const slug = ((await created.json()) as { slug: string }).slug;
    const read = await server.fetch(`/v1/stories/${slug}`);
    const etag = read.headers.get('etag') as string;
    expect(etag).toBe('"1"');
    const edit = (extra: string) =>
      server.fetch(`/v1/stories/${slug}`, {
        method: 'PUT',
        headers: { ...json(alice.token), 'If-Match': etag },
        body: JSON.stringify({ markdown: storyTitled('Edited with etags', { extra }), kind: 'addition' }),
      });
    const first = await edit('First edit.');
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    const before = await observable();
    const body = await problem(await edit('A competing edit.'), 409, 'revision_conflict');
    expect(body.retryable).toBe(true);
    expect(await observable()).toEqual(before);
  });

  it('PUT as text/markdown takes kind and note from the query', async () => {
    const created = await server.fetch('/v1/stories', {
      method: 'POST',
      headers: json(alice.token),
      body: JSON.stringify({ markdown: storyTitled('Edited as markdown') }),
    });
    const slug = ((await created.json()) as { slug: string }).slug;
    const response = await server.fetch(`/v1/stories/${slug}?kind=correction&note=${encodeURIComponent('The second step was wrong.')}`, {
      method: 'PUT',
      headers: { ...auth(alice.token), 'Content-Type': 'text/markdown' },
      body: storyTitled('Edited as markdown', { extra: 'Corrected.' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ slug, revision: 2 });
  });
});

describe('reads over HTTP', () => {
  it('GET /v1/stories lists newest first; ?q= searches with every word required; ?author= lists one author', async () => {
    await server.fetch('/v1/stories', {
      method: 'POST',
      headers: json(bob.token),
      body: JSON.stringify({ markdown: storyTitled('Zebra crossing counters') }),
    });
    const feed = (await (await server.fetch('/v1/stories?limit=2')).json()) as { stories: Array<{ slug: string }>; cursor?: string };
    expect(feed.stories).toHaveLength(2);
    expect(feed.cursor).toEqual(expect.any(String));
    const found = (await (await server.fetch('/v1/stories?q=zebra%20counters')).json()) as {
      stories: Array<{ title: string }>;
      total: number;
    };
    expect(found.stories.map((story) => story.title)).toEqual(['Zebra crossing counters']);
    const none = (await (await server.fetch('/v1/stories?q=zebra%20unicorn')).json()) as { total: number };
    expect(none.total).toBe(0);
    const bobs = (await (await server.fetch(`/v1/stories?author=${bob.account}`)).json()) as {
      stories: Array<{ author: { account: string } }>;
    };
    expect(bobs.stories.every((story) => story.author.account === bob.account)).toBe(true);
    expect(bobs.stories.length).toBeGreaterThan(0);
  });

  it('an unknown query parameter or a non-number limit is 422 naming it', async () => {
    const unknown = await problem(await server.fetch('/v1/stories?sort=oldest'), 422, 'validation_failed');
    expect(unknown.details).toMatchObject({ fields: { sort: expect.any(String) } });
    const limit = await problem(await server.fetch('/v1/stories?limit=many'), 422, 'validation_failed');
    expect(limit.details).toMatchObject({ fields: { limit: expect.any(String) } });
  });

  it('notifications: listed for their owner, marked read by id', async () => {
    const created = await server.fetch('/v1/stories', {
      method: 'POST',
      headers: json(alice.token),
      body: JSON.stringify({ markdown: storyTitled('Someone reproduced me') }),
    });
    const slug = ((await created.json()) as { slug: string }).slug;
    await reportReproduction(server.app.ctx(), { account: bob.account, handle: 'bob' }, { slug, result: 'worked' });
    const inbox = (await (await server.fetch('/v1/notifications?unread_only=true', { headers: auth(alice.token) })).json()) as {
      notifications: Array<{ id: string; story: string }>;
    };
    const notice = inbox.notifications.find((n) => n.story === slug);
    expect(notice).toBeDefined();
    const marked = await server.fetch('/v1/notifications/read', {
      method: 'POST',
      headers: json(alice.token),
      body: JSON.stringify({ ids: [notice?.id] }),
    });
    expect(await marked.json()).toEqual({ read: [notice?.id], unknown: [] });
  });
});

describe('errors are application/problem+json', () => {
  it('401 with WWW-Authenticate for a write without a token', async () => {
    const response = await server.fetch('/v1/stories', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.baseUrl()}/.well-known/oauth-protected-resource"`,
    );
    await problem(response, 401, 'unauthenticated');
    expect((await server.fetch('/v1/notifications')).status).toBe(401);
  });

  it('422 for a body that is not JSON, and for a field the use case refuses, naming it', async () => {
    const notJson = await problem(
      await server.fetch('/v1/stories', { method: 'POST', headers: json(alice.token), body: '{"markdown":' }),
      422,
      'validation_failed',
    );
    expect(notJson.details).toEqual({ fields: { '(body)': expect.any(String) } });
    const badField = await problem(
      await server.fetch('/v1/stories/2026-10-14-anything/reproductions', {
        method: 'POST',
        headers: json(alice.token),
        body: JSON.stringify({ result: 'great' }),
      }),
      422,
      'validation_failed',
    );
    expect(badField.details).toMatchObject({ fields: { result: expect.any(String) } });
  });

  it('404 for an unknown story and for an unknown endpoint', async () => {
    await problem(await server.fetch('/v1/stories/2026-01-01-not-a-story'), 404, 'not_found');
    await problem(await server.fetch('/v2/anything'), 404, 'not_found');
  });

  it('413 for a body over the limit, before anything is parsed', async () => {
    const huge = 'x'.repeat(600 * 1024);
    await problem(
      await server.fetch('/v1/stories', { method: 'POST', headers: { ...auth(alice.token), 'Content-Type': 'text/markdown' }, body: huge }),
      413,
      'payload_too_large',
    );
  });

  it('422 idempotency_key_reused for one Idempotency-Key on two different requests', async () => {
    const send = (title: string) =>
      server.fetch('/v1/stories', {
        method: 'POST',
        headers: { ...json(alice.token), 'Idempotency-Key': 'key-used-twice' },
        body: JSON.stringify({ markdown: storyTitled(title) }),
      });
    expect((await send('First use of a key')).status).toBe(201);
    await problem(await send('Second use of a key'), 422, 'idempotency_key_reused');
  });

  it('an If-Match that is not a story ETag is 422', async () => {
    const response = await server.fetch('/v1/stories/2026-10-14-anything', {
      method: 'PUT',
      headers: { ...json(alice.token), 'If-Match': 'W/"1"' },
      body: JSON.stringify({ markdown: storyTitled('Anything'), kind: 'rephrase' }),
    });
    const body = await problem(response, 422, 'validation_failed');
    expect(body.details).toMatchObject({ fields: { 'If-Match': expect.any(String) } });
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every /v1 route the app serves, and nothing else', async () => {
    const document = (await (await server.fetch('/v1/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const served = server
      .hono()
      .routes.filter((route) => route.path.startsWith('/v1/') && route.method !== 'ALL')
      .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect([...new Set(served)].sort()).toEqual(documented.sort());
  });

  it('describes bodies with the zod schemas, field descriptions included, and writes with Idempotency-Key', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as untyped JSON; a missing part throws and fails the test
    const document = (await (await server.fetch('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, any>> };
    const publish = document.paths['/v1/stories']?.post;
    const body = publish.requestBody.content['application/json'].schema;
    expect(body.properties.markdown.description).toMatch(/whole story/);
    expect(body.properties.parts.properties.title.description).toMatch(/title/);
    expect(publish.requestBody.content['text/markdown']).toBeDefined();
    expect(publish.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Idempotency-Key', 'If-Match']));
    expect(publish.responses['201'].content['application/json'].schema.properties).toHaveProperty('replayed');
    expect(publish.responses['422'].content['application/problem+json']).toBeDefined();
    expect(publish.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/v1/stories']?.get.security).toEqual([{}, { bearer: [] }]);
  });
});
