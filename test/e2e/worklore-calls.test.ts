// worklore's calls over real HTTP, where lorebook's own names differ: the /reproduced and /checked
// aliases, agent and env as objects, the X-Revision-* headers on an edit, and the absolute story
// URL in publish and edit answers (MCP's the same). Bad shapes are refused by name, nothing written.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-worklore-calls');

let alice: { token: string; account: string };
let bob: { token: string; account: string };
beforeAll(async () => {
  alice = await server.token('alice');
  bob = await server.token('bob');
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const json = (token: string) => ({ ...auth(token), 'Content-Type': 'application/json' });
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

async function publish(title: string, options: Parameters<typeof storyTitled>[1] = {}): Promise<Record<string, unknown>> {
  const answer = await server.fetch('/v1/stories', {
    method: 'POST',
    headers: { ...auth(alice.token), 'Content-Type': 'text/markdown' },
    body: storyTitled(title, options),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as Record<string, unknown>;
}

const edit = (slug: string, markdown: string, headers: Record<string, string>, query = '') =>
  server.fetch(`/v1/stories/${slug}${query}`, {
    method: 'PUT',
    headers: { ...auth(alice.token), 'Content-Type': 'text/markdown', ...headers },
    body: markdown,
  });

async function refusedFields(response: Response): Promise<Record<string, string>> {
  expect(response.status).toBe(422);
  const body = (await response.json()) as { code: string; details: { fields: Record<string, string> } };
  expect(body.code).toBe('validation_failed');
  return body.details.fields;
}

describe('publish and edit answer the absolute story URL', () => {
  it('story_url is the public base URL and the story path, over HTTP and MCP alike', async () => {
    const published = await publish('Absolute link');
    expect(published.url).toBe(`${server.baseUrl()}/s/${String(published.slug)}`);
    expect(published.story_url).toBe(`${server.baseUrl()}/s/${String(published.slug)}`);

    const edited = await edit(String(published.slug), storyTitled('Absolute link', { extra: 'More.' }), { 'X-Revision-Kind': 'addition' });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as Record<string, unknown>).story_url).toBe(published.story_url);

    // The MCP client validates the answer against the tool's outputSchema, which declares story_url.
    const mcp = await server.mcp(alice.token);
    const viaMcp = answerOf(await mcp.callTool({ name: 'publish_story', arguments: { markdown: storyTitled('Absolute link over MCP') } }));
    expect(viaMcp.story_url).toBe(`${server.baseUrl()}/s/${String(viaMcp.slug)}`);
  });
});

describe("worklore's revision headers on PUT text/markdown", () => {
  it('X-Revision-Kind, X-Revision-Note and X-Revision-Source are the kind, note and source of the revision (UTF-8 note included)', async () => {
    const { slug } = await publish('Edited by headers');
    const answer = await edit(String(slug), storyTitled('Edited by headers', { extra: 'Step 2 used the wrong flag.' }), {
      'X-Revision-Kind': 'correction',
      'X-Revision-Note': Buffer.from('Step 2: the flag was wrong — fixed, café.', 'utf8').toString('latin1'),
      'X-Revision-Source': 'https://example.com/issue/7',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ revision: 2 });
    const story = (await (await server.fetch(`/v1/stories/${String(slug)}`)).json()) as { revisions: Record<string, unknown>[] };
    expect(story.revisions).toContainEqual(
      expect.objectContaining({
        revision: 2,
        kind: 'correction',
        note: 'Step 2: the flag was wrong — fixed, café.',
        source: 'https://example.com/issue/7',
      }),
    );
  });

  it('a note that is not UTF-8 bytes (a Latin-1 "é") is kept as it came rather than refused', async () => {
    const { slug } = await publish('Edited with a Latin-1 note');
    const answer = await edit(String(slug), storyTitled('Edited with a Latin-1 note', { extra: 'Better words.' }), {
      'X-Revision-Kind': 'rephrase',
      'X-Revision-Note': 'café',
    });
    expect(answer.status).toBe(200);
    const story = (await (await server.fetch(`/v1/stories/${String(slug)}`)).json()) as { revisions: Record<string, unknown>[] };
    expect(story.revisions).toContainEqual(expect.objectContaining({ revision: 2, kind: 'rephrase', note: 'café' }));
  });

  it('a header that disagrees with the query is validation_failed naming the header, and nothing is written', async () => {
    const { slug } = await publish('Headers disagree');
    const before = await observable();
    const answer = await edit(
      String(slug),
      storyTitled('Headers disagree', { extra: 'Changed.' }),
      { 'X-Revision-Kind': 'rephrase' },
      '?kind=addition',
    );
    expect(Object.keys(await refusedFields(answer))).toEqual(['X-Revision-Kind']);
    expect(await observable()).toEqual(before);
  });

  it('a correction by header without X-Revision-Note is refused naming note, as without headers', async () => {
    const { slug } = await publish('Correction without note');
    const before = await observable();
    const answer = await edit(String(slug), storyTitled('Correction without note', { extra: 'Fixed.' }), {
      'X-Revision-Kind': 'correction',
    });
    expect(Object.keys(await refusedFields(answer))).toEqual(['note']);
    expect(await observable()).toEqual(before);
  });
});

describe('/reproduced and /checked, with agent and env as objects', () => {
  it('/reproduced stores the summary and the structured fields, and no answer or page shows them per person', async () => {
    const { slug } = await publish('Reproduced with metadata');
    const answer = await server.fetch(`/v1/stories/${String(slug)}/reproduced`, {
      method: 'POST',
      headers: json(bob.token),
      body: JSON.stringify({
        result: 'worked',
        note: 'Ran it.',
        agent: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' },
        env: { os: 'macos' },
        duration_min: 12,
        tokens: 48000,
      }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      slug,
      result: 'worked',
      counted: true,
      counts: { worked: 1, partial: 0, failed: 0 },
      reproducers_count: 1,
    });
    const repro = (await observable()).find((item) => item.PK === `STORY#${String(slug)}` && item.SK === `REPRO#${bob.account}`);
    expect(repro).toMatchObject({
      agent: 'claude-code 2.0.14 (claude-sonnet-4-5)',
      agent_fields: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' },
      env: 'os: macos',
      env_fields: { os: 'macos' },
      duration_min: 12,
      tokens: 48000,
    });
    const read = await (await server.fetch(`/v1/stories/${String(slug)}`)).text();
    const page = await (await server.fetch(`/s/${String(slug)}`)).text();
    for (const shown of [read, page]) {
      expect(shown).not.toContain('claude-sonnet-4-5');
      expect(shown).not.toContain('macos');
    }
  });

  it.each([
    ['agent as a number', { result: 'worked', agent: 7 }, 'agent'],
    ['an agent with a machine identifier key', { result: 'worked', agent: { name: 'claude-code', hostname: 'my-mac' } }, 'agent'],
    ['env with a path as its key', { result: 'worked', env: { '/Users/me': 'x' } }, 'env'],
  ])('/reproduced refuses %s naming the field, and writes nothing', async (what, body, field) => {
    const { slug } = await publish(`Refused report with ${what}`);
    const before = await observable();
    const answer = await server.fetch(`/v1/stories/${String(slug)}/reproduced`, {
      method: 'POST',
      headers: json(bob.token),
      body: JSON.stringify(body),
    });
    expect(Object.keys(await refusedFields(answer))).toEqual([field]);
    expect(await observable()).toEqual(before);
  });

  it('/checked is report_check: counted for another account, counted:false for the author, 409 without a check, 404 on a private story', async () => {
    const { slug } = await publish('Checked by alias');
    const check = (token: string, target: string, result: string) =>
      server.fetch(`/v1/stories/${target}/checked`, { method: 'POST', headers: json(token), body: JSON.stringify({ result }) });
    expect(await (await check(bob.token, String(slug), 'has_problem')).json()).toMatchObject({ counted: true, checks: { has_problem: 1 } });
    expect(await (await check(alice.token, String(slug), 'no_problem')).json()).toMatchObject({ counted: false });
    expect(Object.keys(await refusedFields(await check(bob.token, String(slug), 'not_applicable')))).toEqual(['result']);
    const noCheck = await publish('Checked without a check', { check: false });
    expect((await check(bob.token, String(noCheck.slug), 'no_problem')).status).toBe(409);
    const hidden = await publish('Checked but private', { visibility: 'private' });
    expect((await check(bob.token, String(hidden.slug), 'no_problem')).status).toBe(404);
  });
});

describe('OpenAPI documents the aliases', () => {
  it('lists /reproduced and /checked as aliases, the X-Revision-* headers on PUT, and story_url in the publish answer', async () => {
    const document = (await (await server.fetch('/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { operationId: string; summary: string; parameters?: { name: string }[]; responses: Record<string, unknown> }>
      >;
    };
    expect(document.paths['/v1/stories/{slug}/reproduced']?.post?.summary).toContain('alias of POST /v1/stories/{slug}/reproductions');
    expect(document.paths['/v1/stories/{slug}/checked']?.post?.summary).toContain('alias of POST /v1/stories/{slug}/checks');
    const put = document.paths['/v1/stories/{slug}']?.put;
    expect(put?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['X-Revision-Kind', 'X-Revision-Note', 'X-Revision-Source']),
    );
    expect(JSON.stringify(document.paths['/v1/stories']?.post?.responses)).toContain('story_url');
  });
});
