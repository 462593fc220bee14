// The lists people and feed readers see: the home page (paged), an author's page, the Atom feed
// (parsed and validated with fast-xml-parser) and the sitemap (its index and the sitemaps it names) — none of which may show a hidden
// or a private story. Real server on 127.0.0.1, DynamoDB Local, stories from the real use cases.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { HOME_PAGE_SIZE } from '../../../src/http/pages/home-page.ts';
import { caller } from '../../helpers/app-fixture.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { privateStory, withdrawnStory } from '../../helpers/page-stories.ts';
import { allUrls, readSitemap } from '../../helpers/sitemap-reader.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('pages-lists');
let alice: Caller;
let bob: Caller;
const listed: string[] = [];
let withdrawn = '';
let secret = '';

beforeAll(async () => {
  const ctx = server.app.ctx();
  alice = { account: (await server.token('alice')).account, handle: 'alice' };
  bob = { account: (await server.token('bob')).account, handle: 'bob' };
  // One more than a home page holds, so the home page has a second page.
  for (let index = 0; index <= HOME_PAGE_SIZE; index += 1) {
    const author = index % 3 === 0 ? bob : alice;
    listed.push((await publishStory(ctx, author, { markdown: storyTitled(`Listed story number ${index} & <friends>`) })).slug);
  }
  for (const name of ['carol', 'dave', 'erin'])
    await reportReproduction(ctx, caller(name), { slug: listed[1] as string, result: 'worked' });
  await reportReproduction(ctx, caller('frank'), { slug: listed[2] as string, result: 'worked' });
  await reportReproduction(ctx, caller('gina'), { slug: listed[2] as string, result: 'failed' });
  withdrawn = await withdrawnStory(ctx, alice, 'Withdrawn from every list');
  secret = await privateStory(ctx, alice, 'Private and off every list');
});

const body = async (path: string): Promise<string> => {
  const response = await server.fetch(path);
  expect(response.status, path).toBe(200);
  return response.text();
};
const slugsIn = (html: string): string[] => [...html.matchAll(/<h2><a href="\/s\/([^"]+)">/g)].map((match) => match[1] as string);

describe('the home page', () => {
  it('lists the newest stories first, a page at a time, and the "older" link leads to the rest exactly once', async () => {
    const first = await body('/');
    const firstSlugs = slugsIn(first);
    expect(firstSlugs).toEqual([...listed].reverse().slice(0, HOME_PAGE_SIZE));
    const older = /<a rel="next" href="([^"]+)">/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    expect(older).toMatch(/^\/\?cursor=/);
    const second = await body(older as string);
    expect(slugsIn(second)).toEqual([listed[0]]);
    expect(second).not.toContain('rel="next"');
  });

  it('escapes what authors wrote: a title with & and <friends> is text', async () => {
    expect(await body('/')).toContain('Listed story number 5 &amp; &lt;friends&gt;');
  });

  it('a cursor that was not handed out is a 400 page, not an error dump', async () => {
    const response = await server.fetch('/?cursor=bm90LWEtY3Vyc29y');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('That page link is out of date');
  });
});

describe("an author's page", () => {
  it("lists only that author's public stories, with how many people each worked for", async () => {
    const page = await body('/a/alice');
    expect(page).toContain('<h1>@alice</h1>');
    const aliceListed = listed.filter((_slug, index) => index % 3 !== 0);
    expect(slugsIn(page)).toEqual([...aliceListed].reverse());
    expect(page).toContain(`${aliceListed.length} stories · worked for 4 people who reproduced them`);
    expect(page).toContain('reproduced 3× · worked for 3 people');
    expect(page).toContain('reproduced 2× · worked for 1 person');
  });

  it("a cursor from another list (the home page's) is a 400 page", async () => {
    const home = await body('/');
    const older = /<a rel="next" href="\/\?cursor=([^"]+)">/.exec(home)?.[1] as string;
    const response = await server.fetch(`/a/alice?cursor=${older}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('That page link is out of date');
  });

  it('a handle with an @ in front works too', async () => {
    expect(slugsIn(await body('/a/@bob'))).toEqual(listed.filter((_slug, index) => index % 3 === 0).reverse());
  });
});

describe('the Atom feed', () => {
  it('is well-formed XML and has every element Atom requires, for the feed and each entry', async () => {
    const response = await server.fetch('/feed.atom');
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml) as { feed: Record<string, unknown> };
    const feed = parsed.feed;
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`${server.baseUrl()}/`);
    expect(feed.title).toBe('lorebook: new stories');
    expect(Number.isNaN(Date.parse(String(feed.updated)))).toBe(false);
    const links = [feed.link].flat() as Array<Record<string, string>>;
    expect(links.some((link) => link['@rel'] === 'self' && link['@href'] === `${server.baseUrl()}/feed.atom`)).toBe(true);
    const entries = [feed.entry].flat() as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(listed.length);
    for (const entry of entries) {
      expect(String(entry.id)).toMatch(new RegExp(`^${server.baseUrl()}/s/`));
      expect(typeof entry.title === 'string' || typeof (entry.title as Record<string, unknown>)['#text'] === 'string').toBe(true);
      expect(Number.isNaN(Date.parse(String(entry.updated)))).toBe(false);
      expect((entry.link as Record<string, string>)['@href']).toBe(entry.id);
      // No feed-level author is needed when every entry has its own.
      expect(String((entry.author as Record<string, string>).name)).toMatch(/^@(alice|bob)$/);
    }
    const ids = entries.map((entry) => String(entry.id).replace(`${server.baseUrl()}/s/`, ''));
    expect(ids).toEqual([...listed].reverse());
    expect(feed.updated).toBe(entries[0]?.updated);
  });
});

describe('the sitemap', () => {
  it('is an index whose sitemaps list the home page, every listed story once and their authors', async () => {
    const base = server.baseUrl();
    const locs = allUrls(await readSitemap(server.fetch, base)).map((url) => url.loc);
    expect(locs).toEqual([`${base}/`, ...listed.map((slug) => `${base}/s/${slug}`), `${base}/a/alice`, `${base}/a/bob`]);
  });
});

describe('hidden and private stories are on no list', () => {
  it.each(['/', '/a/alice', '/feed.atom', '/sitemap.xml'])('%s never names them', async (path) => {
    const text = await body(path);
    for (const slug of [withdrawn, secret]) expect(text).not.toContain(slug);
    expect(text).not.toContain('Withdrawn from every list');
    expect(text).not.toContain('Private and off every list');
  });

  it('no sitemap names them', async () => {
    const locs = allUrls(await readSitemap(server.fetch, server.baseUrl())).map((url) => url.loc);
    for (const slug of [withdrawn, secret]) expect(locs.some((loc) => loc.includes(slug))).toBe(false);
  });
});
