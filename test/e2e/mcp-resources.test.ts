// Resources, prompts and completions over /mcp with the MCP SDK Client, anonymous: the fixed
// resources, a story by its template (public only), resources/list paging through every public
// story with its cursor, resource_links in get_story and search_stories, the three prompts, slug
// completion, and hostile template URIs answered with a typed error.
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../src/app/publish-story.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { MCP_TOOL_ACCESS } from '../../src/auth/access-rule.ts';
import { SKILL } from '../../src/domain/skill/skill-document.ts';
import { MAX_STORY_MARKDOWN_BYTES } from '../../src/domain/story/story-limits.ts';
import { RESOURCE_PAGE_SIZE } from '../../src/mcp/resource-handlers.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-mcp-resources');
const AUTHOR = { account: 'acct-resources', handle: 'resources' };
const FIXED = ['lorebook://guide', 'lorebook://story-format', 'lorebook://access'];
/** More public stories than one resources/list page holds. */
const PUBLIC_STORIES = RESOURCE_PAGE_SIZE + 5;

let publicSlugs: string[];
let hiddenSlug: string;
let privateSlug: string;

const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

/** The JSON-RPC error a refused SDK call threw. */
async function protocolErrorOf(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

beforeAll(async () => {
  const ctx = server.app.ctx();
  publicSlugs = [];
  // Published in small parallel groups: a loaded machine still finishes in seconds.
  for (let start = 0; start < PUBLIC_STORIES; start += 8) {
    const group = Array.from({ length: Math.min(8, PUBLIC_STORIES - start) }, (_, offset) =>
      publishStory(ctx, AUTHOR, { markdown: storyTitled(`Paging story number ${start + offset}`) }),
    );
    publicSlugs.push(...(await Promise.all(group)).map((answer) => answer.slug));
  }
  hiddenSlug = (await publishStory(ctx, AUTHOR, { markdown: storyTitled('Withdrawn resource story') })).slug;
  await setVisibility(ctx, AUTHOR, { slug: hiddenSlug, hidden: true });
  privateSlug = (await publishStory(ctx, AUTHOR, { markdown: storyTitled('Private resource story', { visibility: 'private' }) })).slug;
  server.search().invalidate();
}, 120_000);

describe('resources', () => {
  it('resources/list starts with the three fixed resources, then pages through every public story exactly once with its cursor', async () => {
    const client = await server.mcp();
    const first = await client.listResources();
    expect(first.resources.slice(0, 3).map((resource) => resource.uri)).toEqual(FIXED);
    expect(first.resources.length).toBe(3 + RESOURCE_PAGE_SIZE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const uris = first.resources.slice(3).map((resource) => resource.uri);
    let cursor = first.nextCursor;
    for (let page = 0; cursor !== undefined && page < 10; page += 1) {
      const next = await client.listResources({ cursor });
      expect(next.resources.map((resource) => resource.uri)).not.toContain(FIXED[0]);
      uris.push(...next.resources.map((resource) => resource.uri));
      cursor = next.nextCursor;
    }
    expect(cursor).toBeUndefined();
    expect([...uris].sort()).toEqual(publicSlugs.map((slug) => `lorebook://story/${slug}`).sort());
    const entry = first.resources[3];
    expect(entry).toMatchObject({
      mimeType: 'text/markdown',
      name: expect.stringMatching(/^2026-/),
      title: expect.stringMatching(/^Paging story/),
    });
  });

  it('a cursor that resources/list did not hand out is a typed -32602 error', async () => {
    const error = await protocolErrorOf((await server.mcp()).listResources({ cursor: 'not-a-cursor' }));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ code: 'validation_failed', retryable: false, details: { fields: { cursor: expect.any(String) } } });
  });

  it('resources/templates/list lists lorebook://story/{slug}', async () => {
    const { resourceTemplates } = await (await server.mcp()).listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'lorebook://story/{slug}', mimeType: 'text/markdown' })]);
  });

  it('each fixed resource reads as markdown: the guide carries the skill, the format its limits, the access table every tool', async () => {
    const client = await server.mcp();
    const text = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      expect(contents).toEqual([{ uri, mimeType: 'text/markdown', text: expect.any(String) }]);
      return (contents[0] as { text: string }).text;
    };
    const guide = await text('lorebook://guide');
    expect(guide).toContain(`version ${SKILL.version}`);
    expect(guide).toContain('## Reproduce and report honestly');
    expect(guide).toContain('`publish_story`');
    expect(await text('lorebook://story-format')).toContain(`| markdown, UTF-8 bytes | ${MAX_STORY_MARKDOWN_BYTES} |`);
    const access = await text('lorebook://access');
    for (const [tool, needs] of Object.entries(MCP_TOOL_ACCESS))
      expect(access).toContain(`| \`${tool}\` | ${needs === 'token' ? 'a token' : 'no token'} |`);
  });

  it('a public story reads by its template as the markdown get_story answers, between the markers saying who wrote it', async () => {
    const client = await server.mcp();
    const slug = publicSlugs[0] as string;
    const { contents } = await client.readResource({ uri: `lorebook://story/${slug}` });
    const story = answerOf<{ markdown: string }>(await client.callTool({ name: 'get_story', arguments: { slug } }));
    expect(contents).toEqual([{ uri: `lorebook://story/${slug}`, mimeType: 'text/markdown', text: expect.any(String) }]);
    const text = (contents[0] as { text: string }).text;
    expect(text).toMatch(/^<!-- lorebook: story text by @\S+ begins \(marker [0-9a-f]{16}\)\./);
    expect(text).toContain(`-->\n${story.markdown}<!-- lorebook: end of story text `);
  });

  it('a hidden, a private and an unknown story answer resource-not-found (-32602, data.code not_found, data.uri) alike, even with the author’s token', async () => {
    const authorToken = (await server.token('resources-author')).token;
    for (const client of [await server.mcp(), await server.mcp(authorToken)]) {
      for (const slug of [hiddenSlug, privateSlug, '2026-01-01-nothing-here']) {
        const error = await protocolErrorOf(client.readResource({ uri: `lorebook://story/${slug}` }));
        expect(error.code, slug).toBe(-32602);
        expect(error.data, slug).toMatchObject({ code: 'not_found', retryable: false, uri: `lorebook://story/${slug}` });
      }
    }
  });

  it.each([
    ['a path escape', 'lorebook://story/../../etc/passwd', 'validation_failed'],
    ['an encoded NUL', 'lorebook://story/2026-10-14-a%00b', 'validation_failed'],
    ['a 10 KB slug', `lorebook://story/${'a'.repeat(10_000)}`, 'validation_failed'],
    ['another scheme', 'file:///etc/passwd', 'not_found'],
    ['an unknown lorebook resource', 'lorebook://secrets', 'not_found'],
  ])('%s in resources/read is a typed error and reads nothing', async (_what, uri, code) => {
    const before = await observable();
    const error = await protocolErrorOf((await server.mcp()).readResource({ uri }));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({
      code,
      message: expect.any(String),
      retryable: false,
    });
    expect(error.message.length).toBeLessThan(1000);
    expect(await observable()).toEqual(before);
  });

  it('get_story and search_stories results carry a resource_link to each public story they name', async () => {
    const client = await server.mcp();
    const slug = publicSlugs[1] as string;
    const read = (await client.callTool({ name: 'get_story', arguments: { slug } })) as CallToolResult;
    expect(read.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: `lorebook://story/${slug}`, name: slug, mimeType: 'text/markdown' }),
    );
    const found = (await client.callTool({ name: 'search_stories', arguments: { query: 'paging story', limit: 5 } })) as CallToolResult;
    const page = found.structuredContent as { stories: Array<{ slug: string }> };
    expect(page.stories.length).toBe(5);
    expect(found.content.filter((item) => item.type === 'resource_link').map((item) => (item as { uri: string }).uri)).toEqual(
      page.stories.map((story) => `lorebook://story/${story.slug}`),
    );
  });

  it("the author's get_story of their private story carries no resource_link (the resource would not answer)", async () => {
    const { token, account } = await server.token('private-linker');
    const { slug } = await publishStory(
      server.app.ctx(),
      { account, handle: 'private-linker' },
      {
        markdown: storyTitled('Private story with no link', { visibility: 'private' }),
      },
    );
    const read = (await (await server.mcp(token)).callTool({ name: 'get_story', arguments: { slug } })) as CallToolResult;
    expect(read.isError).toBeFalsy();
    expect(read.content.filter((item) => item.type === 'resource_link')).toEqual([]);
  });
});

describe('prompts', () => {
  it('prompts/list names write_story, reproduce_story and check_story, the last two with a required slug', async () => {
    const { prompts } = await (await server.mcp()).listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((arg) => [arg.name, arg.required])])).toEqual([
      ['write_story', []],
      ['reproduce_story', [['slug', true]]],
      ['check_story', [['slug', true]]],
    ]);
    for (const prompt of prompts) expect(prompt.description, prompt.name).toEqual(expect.any(String));
  });

  it("write_story carries the skill's drafting rules and says to publish with publish_story only after approval", async () => {
    const { messages } = await (await server.mcp()).getPrompt({ name: 'write_story' });
    const text = (messages[0]?.content as { text: string }).text;
    expect(text).toContain('## Draft a story from the session');
    expect(text).toContain('Sanitise');
    expect(text).toMatch(/publish_story only after I approve/);
  });

  it.each([
    ['reproduce_story', 'report_reproduction', '## Reproduce and report honestly'],
    ['check_story', 'report_check', '## Check whether a story applies'],
  ])('%s embeds the story and names %s as the tool to report with', async (name, tool, rules) => {
    const slug = publicSlugs[2] as string;
    const { messages } = await (await server.mcp()).getPrompt({ name, arguments: { slug } });
    const text = (messages[0]?.content as { text: string }).text;
    expect(text).toContain(tool);
    expect(text).toContain(rules);
    expect(messages[1]?.content).toEqual({
      type: 'resource',
      resource: { uri: `lorebook://story/${slug}`, mimeType: 'text/markdown', text: expect.stringContaining('## Reproduce this') },
    });
  });

  it('a prompt for a hidden story is not found, one without its slug or an unknown prompt is -32602, each typed', async () => {
    const client = await server.mcp();
    const hidden = await protocolErrorOf(client.getPrompt({ name: 'check_story', arguments: { slug: hiddenSlug } }));
    expect([hidden.code, (hidden.data as { code: string }).code]).toEqual([-32602, 'not_found']);
    const missing = await protocolErrorOf(client.getPrompt({ name: 'reproduce_story', arguments: {} }));
    expect(missing.code).toBe(-32602);
    expect(missing.data).toMatchObject({ code: 'validation_failed', details: { fields: { slug: expect.any(String) } } });
    const unknown = await protocolErrorOf(client.getPrompt({ name: 'delete_story' }));
    expect(unknown.code).toBe(-32602);
  });
});

describe('completion', () => {
  it('completes a slug argument from a slug prefix, a title-part prefix or a title prefix, public stories only', async () => {
    const client = await server.mcp();
    const complete = async (value: string, ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }) =>
      (await client.complete({ ref, argument: { name: 'slug', value } })).completion;
    const fromTitle = await complete('Paging story number 1', { type: 'ref/prompt', name: 'reproduce_story' });
    const expected = publicSlugs.filter((slug) => /-paging-story-number-1\d*$/.test(slug));
    expect([...fromTitle.values].sort()).toEqual([...expected].sort());
    expect(fromTitle).toMatchObject({ total: expected.length, hasMore: false });
    const fromSlug = await complete(publicSlugs[3] as string, { type: 'ref/resource', uri: 'lorebook://story/{slug}' });
    expect(fromSlug.values).toEqual([publicSlugs[3]]);
    const fromTitlePart = await complete('paging-story-number-2', { type: 'ref/prompt', name: 'check_story' });
    expect(fromTitlePart.values.length).toBeGreaterThan(0);
    expect(await complete('withdrawn', { type: 'ref/prompt', name: 'check_story' })).toMatchObject({ values: [], total: 0 });
    expect(await complete('private', { type: 'ref/prompt', name: 'check_story' })).toMatchObject({ values: [], total: 0 });
  });

  it('an empty prefix gives at most 100 slugs; another argument or prompt gets no values; a 100 KB value is answered empty', async () => {
    const client = await server.mcp();
    const all = (await client.complete({ ref: { type: 'ref/prompt', name: 'check_story' }, argument: { name: 'slug', value: '' } }))
      .completion;
    expect(all.values.length).toBe(PUBLIC_STORIES);
    expect(all.values.length).toBeLessThanOrEqual(100);
    const other = await client.complete({ ref: { type: 'ref/prompt', name: 'write_story' }, argument: { name: 'slug', value: 'p' } });
    expect(other.completion.values).toEqual([]);
    const huge = await client.complete({
      ref: { type: 'ref/prompt', name: 'check_story' },
      argument: { name: 'slug', value: 'p'.repeat(100_000) },
    });
    expect(huge.completion).toEqual({ values: [], total: 0, hasMore: false });
  });
});
