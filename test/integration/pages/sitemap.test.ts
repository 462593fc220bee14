// The sitemap past one file: /sitemap.xml is a sitemaps.org index of the home page's sitemap and
// one sitemap per feed month, a month split into numbered parts when it holds more than a part
// may. Here the URL cap is 4 (2 stories and at most 2 authors a part), so five stories in one
// month make three parts. Real server on 127.0.0.1, DynamoDB Local, stories from the real use cases.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { privateStory, withdrawnStory } from '../../helpers/page-stories.ts';
import { allUrls, type ReadSitemap, readSitemap } from '../../helpers/sitemap-reader.ts';
import { storyTitled } from '../../helpers/stories.ts';

const MAX_URLS = 4;
const server = useLorebookServer('pages-sitemap', { sitemapMaxUrls: MAX_URLS });
const DAY_MS = 24 * 60 * 60 * 1000;
let alice: Caller;
let bob: Caller;
/** Five public stories in the first month, oldest first, then two in a month 40 days later. */
const firstMonth: string[] = [];
const secondMonth: string[] = [];
let months: [string, string];
let hiddenOnes: string[] = [];
let edited = '';

const monthOf = (slug: string): Promise<string> =>
  getStory(server.app.ctx(), undefined, { slug }).then((story) => story.published_at.slice(0, 7));

beforeAll(async () => {
  const ctx = server.app.ctx();
  // A stopped clock, moved by hand: a month cannot end between two publishes meant for one month.
  server.app.freeze();
  alice = { account: (await server.token('alice')).account, handle: 'alice' };
  bob = { account: (await server.token('bob')).account, handle: 'bob' };
  const publish = async (title: string, author: Caller): Promise<string> => {
    server.app.advance(1000);
    return (await publishStory(ctx, author, { markdown: storyTitled(title) })).slug;
  };
  for (let index = 0; index < 5; index += 1) firstMonth.push(await publish(`First month story ${index}`, index === 2 ? bob : alice));
  hiddenOnes = [await withdrawnStory(ctx, alice, 'Withdrawn first month story'), await privateStory(ctx, bob, 'Private first month story')];
  server.app.advance(40 * DAY_MS);
  for (let index = 0; index < 2; index += 1) secondMonth.push(await publish(`Second month story ${index}`, bob));
  months = [await monthOf(firstMonth[0] as string), await monthOf(secondMonth[0] as string)];
  server.app.advance(1000);
  edited = firstMonth[1] as string;
  const story = await getStory(ctx, alice, { slug: edited });
  await editStory(ctx, alice, {
    slug: edited,
    markdown: story.markdown.replace('One evening two agents', 'One night two agents'),
    kind: 'rephrase',
  });
});

const read = (): Promise<ReadSitemap> => readSitemap(server.fetch, server.baseUrl());
const storyUrl = (slug: string): string => `${server.baseUrl()}/s/${slug}`;

describe('the sitemap index', () => {
  it('names the home sitemap, then each month newest first, a month past the cap in numbered parts', async () => {
    const base = server.baseUrl();
    const [first, second] = months;
    expect((await read()).index.map((entry) => entry.loc)).toEqual([
      `${base}/sitemap/home.xml`,
      `${base}/sitemap/${second}.xml`,
      `${base}/sitemap/${first}.xml`,
      `${base}/sitemap/${first}-p2.xml`,
      `${base}/sitemap/${first}-p3.xml`,
    ]);
  });

  it('robots.txt points crawlers at the index', async () => {
    const response = await server.fetch('/robots.txt');
    expect(await response.text()).toContain(`Sitemap: ${server.baseUrl()}/sitemap.xml\n`);
  });
});

describe('the sitemaps', () => {
  it('list every public story exactly once across all of them, oldest first within a month', async () => {
    const stories = allUrls(await read())
      .map((url) => url.loc)
      .filter((loc) => loc.includes('/s/'));
    expect(stories).toEqual([...secondMonth, ...firstMonth].map(storyUrl));
  });

  it('never name a hidden or a private story', async () => {
    const locs = allUrls(await read()).map((url) => url.loc);
    for (const slug of hiddenOnes) expect(locs.some((loc) => loc.includes(slug))).toBe(false);
  });

  it('hold at most the URL cap each, stories and their authors together', async () => {
    const sitemap = await read();
    for (const [loc, urls] of sitemap.files) expect(urls.length, loc).toBeLessThanOrEqual(MAX_URLS);
    const part = (name: string): string[] =>
      (sitemap.files.get(`${server.baseUrl()}/sitemap/${name}.xml`) ?? []).map((url) => url.loc.replace(server.baseUrl(), ''));
    const [first] = months;
    // Part 2 holds stories 2 (bob's) and 3 (alice's): each author once, after the stories.
    expect(part(`${first}-p2`)).toEqual([`/s/${firstMonth[2]}`, `/s/${firstMonth[3]}`, '/a/alice', '/a/bob']);
    // Both of part 1's stories are alice's: her page once.
    expect(part(first)).toEqual([`/s/${firstMonth[0]}`, `/s/${firstMonth[1]}`, '/a/alice']);
  });

  it('give each story its newest change as lastmod, and each author the newest of theirs in the file', async () => {
    const sitemap = await read();
    const urls = allUrls(sitemap);
    const story = await getStory(server.app.ctx(), undefined, { slug: edited });
    expect(story.updated_at > story.published_at).toBe(true);
    expect(urls.find((url) => url.loc === storyUrl(edited))?.lastmod).toBe(story.updated_at);
    const [first] = months;
    const partOne = sitemap.files.get(`${server.baseUrl()}/sitemap/${first}.xml`) ?? [];
    expect(partOne.find((url) => url.loc.endsWith('/a/alice'))?.lastmod).toBe(story.updated_at);
  });

  it('the home sitemap lists the home page, last changed when the newest story was published', async () => {
    const newest = await getStory(server.app.ctx(), undefined, { slug: secondMonth[1] as string });
    const home = (await read()).files.get(`${server.baseUrl()}/sitemap/home.xml`);
    expect(home).toEqual([{ loc: `${server.baseUrl()}/`, lastmod: newest.published_at }]);
  });

  it.each(['p4', 'p1', 'p0', 'p02'])('a part the index does not name (-%s) is a 404', async (suffix) => {
    const response = await server.fetch(`/sitemap/${months[0]}-${suffix}.xml`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('/sitemap.xml lists them');
  });

  it.each(['2026-13.xml', 'index.xml', '1999-01.xml'])('a name that is no part (%s) is a 404', async (name) => {
    expect((await server.fetch(`/sitemap/${name}`)).status).toBe(404);
  });
});

describe('caching', () => {
  it.each(['/sitemap.xml', '/sitemap/home.xml', 'part'])(
    '%s carries a strong ETag and Cache-Control; If-None-Match naming it is a 304 with no body',
    async (which) => {
      const path = which === 'part' ? `/sitemap/${months[0]}-p2.xml` : which;
      const first = await server.fetch(path);
      const tag = first.headers.get('etag');
      expect(tag).toMatch(/^"[^"]+"$/);
      expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
      const again = await server.fetch(path, { headers: { 'If-None-Match': tag as string } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
      const other = await server.fetch(path, { headers: { 'If-None-Match': '"something-else"' } });
      expect(other.status).toBe(200);
    },
  );
});

describe('how it reads the store', () => {
  it('with key-ordered Queries on the feed index and a few BatchGetItems, never a Scan', async () => {
    const counter = server.app.counter();
    counter.reset();
    await read();
    const calls = counter.snapshot();
    expect(calls.Scan).toBeUndefined();
    expect(calls.Query).toBeGreaterThan(0);
  });

  // Last: it leaves a stale index entry behind. DynamoDB's indexes are updated after the write
  // (eventually); DynamoDB Local's at once, so the lag is written by hand: the hidden story's
  // item carries its feed keys again, as the index may still show them just after a hide.
  it('drops a hidden story whose feed index entry has not caught up with the hide yet', async () => {
    const ctx = server.app.ctx();
    const slug = hiddenOnes[0] as string;
    const story = await getStory(ctx, alice, { slug });
    expect(story.hidden).toBe(true);
    await ctx.store.client.send(
      new UpdateCommand({
        TableName: ctx.store.tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
        ExpressionAttributeValues: { ':pk': `FEED#${story.published_at.slice(0, 7)}`, ':sk': `${story.published_at}#${slug}` },
      }),
    );
    const locs = allUrls(await read()).map((url) => url.loc);
    expect(locs.some((loc) => loc.includes(slug))).toBe(false);
    expect(locs.filter((loc) => loc.includes('/s/'))).toEqual([...secondMonth, ...firstMonth].map(storyUrl));
  });
});
