// The Bluesky feed generator against real announcements: stories are published with the real
// announcer against the real PDS on 127.0.0.1, then the hono app (in-process, the way Bluesky's
// AppView would call it) answers did.json, describeFeedGenerator and getFeedSkeleton. The
// skeleton must list exactly the posts that are live on the PDS for listed stories, newest
// story first, across pages of any size, each exactly once — never a private story (never
// posted), a hidden one (its post deleted) or one whose announcement failed.
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import type { HttpEnv } from '../../../src/http/http-env.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-feed-generator', { rateLimitPerMinute: 1_000_000, anonymousRateLimitPerMinute: 1_000_000 });
const bsky = useBluesky();
const alice = caller('alice');
const RKEY = 'lorebook';
let hono: Hono<HttpEnv>;
let feed = '';
/** The slugs of the stories that are announced and listed, oldest first. */
const announced: string[] = [];
let hidden = '';
let secret = '';
let failed = '';

beforeAll(async () => {
  const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
  for (let index = 0; index < 7; index += 1) {
    announced.push((await publishStory(ctx, alice, { markdown: storyTitled(`Announced story ${index}`) })).slug);
    await idle();
  }
  hidden = (await publishStory(ctx, alice, { markdown: storyTitled('Announced then hidden') })).slug;
  await idle();
  await setVisibility(ctx, alice, { slug: hidden, hidden: true });
  await idle();
  secret = (await publishStory(ctx, alice, { markdown: storyTitled('Private, never announced', { visibility: 'private' }) })).slug;
  await idle();
  const refused = withAnnouncing(app.ctx(), bsky.announcer({}, { appPassword: 'not-the-app-password' }));
  failed = (await publishStory(refused.ctx, alice, { markdown: storyTitled('Announcement refused') })).slug;
  await refused.idle();

  feed = `at://${bsky.account().did}/app.bsky.feed.generator/${RKEY}`;
  hono = createHttpApp({
    ctx: app.ctx(),
    search: createStorySearch(app.ctx()),
    baseUrl: BASE_URL,
    allowedOrigins: [],
    feedGenerator: { publisherDid: bsky.account().did, rkey: RKEY, tags: [] },
  });
}, 120_000);

const get = async (path: string): Promise<{ status: number; json: Record<string, unknown> }> => {
  const response = await hono.request(`${BASE_URL}${path}`, { headers: { host: 'lorebook.test' } });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

const skeleton = (params: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> =>
  get(`/xrpc/app.bsky.feed.getFeedSkeleton?${new URLSearchParams({ feed, ...params }).toString()}`);

describe('the feed generator service', () => {
  it('/.well-known/did.json is the did:web document of the public host, with the BskyFeedGenerator service', async () => {
    const { status, json } = await get('/.well-known/did.json');
    expect(status).toBe(200);
    expect(json).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: 'did:web:lorebook.test',
      service: [{ id: '#bsky_fg', type: 'BskyFeedGenerator', serviceEndpoint: BASE_URL }],
    });
  });

  it('describeFeedGenerator names the service DID, the main feed and needs reproducers (no tags configured here)', async () => {
    const { status, json } = await get('/xrpc/app.bsky.feed.describeFeedGenerator');
    expect(status).toBe(200);
    expect(json).toEqual({
      did: 'did:web:lorebook.test',
      feeds: [{ uri: feed }, { uri: `at://${bsky.account().did}/app.bsky.feed.generator/needs-repro` }],
    });
  });
});

describe('the story page of an announced story', () => {
  it('links the Bluesky post on bsky.app (the announce link)', async () => {
    const slug = announced[0] as string;
    const { uri } = (await getStory(app.ctx(), alice, { slug })).announce;
    const [, did, rkey] = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/(.+)$/.exec(uri ?? '') ?? [];
    const response = await hono.request(`${BASE_URL}/s/${slug}`, { headers: { host: 'lorebook.test' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(
      `<a href="https://bsky.app/profile/${did}/post/${rkey}" rel="nofollow noopener">announced on Bluesky</a>`,
    );
  });

  it('a story whose announcement failed has no such link', async () => {
    const response = await hono.request(`${BASE_URL}/s/${failed}`, { headers: { host: 'lorebook.test' } });
    expect(await response.text()).not.toContain('announced on Bluesky');
  });
});

describe('getFeedSkeleton', () => {
  it('lists exactly the live announcement posts of listed stories, newest story first', async () => {
    const { status, json } = await skeleton({ limit: '100' });
    expect(status).toBe(200);
    const posts = (json.feed as Array<{ post: string }>).map((item) => item.post);
    const expected = [];
    for (const slug of [...announced].reverse()) {
      const story = await getStory(app.ctx(), alice, { slug });
      expect(story.announce.state).toBe('posted');
      expected.push(story.announce.uri);
    }
    expect(posts).toEqual(expected);
    // The same set the PDS holds: the hidden story's post was deleted, the others never made.
    const live = (await bsky.posts()).map((post) => post.uri);
    expect([...posts].sort()).toEqual([...live].sort());
    expect(json.cursor).toBeUndefined();
    expect((await getStory(app.ctx(), alice, { slug: failed })).announce.state).toBe('failed');
    expect((await getStory(app.ctx(), alice, { slug: hidden })).announce.state).not.toBe('posted');
    expect((await getStory(app.ctx(), alice, { slug: secret })).announce.state).toBe('off');
  });

  it.each([1, 2, 3, 50])('pages of %i hand out every post exactly once, in order, and the last page has no cursor', async (limit) => {
    const all = ((await skeleton({ limit: '100' })).json.feed as Array<{ post: string }>).map((item) => item.post);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const { status, json } = await skeleton({ limit: String(limit), ...(cursor === undefined ? {} : { cursor }) });
      expect(status).toBe(200);
      const posts = (json.feed as Array<{ post: string }>).map((item) => item.post);
      expect(posts.length).toBeLessThanOrEqual(limit);
      seen.push(...posts);
      cursor = json.cursor as string | undefined;
      if (cursor === undefined) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(all);
    expect(all).toHaveLength(announced.length);
  });

  it('the default page is 50 posts (all 7 here)', async () => {
    expect(((await skeleton({})).json.feed as unknown[]).length).toBe(announced.length);
  });

  it.each([
    ['another feed', { feed: `at://${'did:plc:someoneelse'}/app.bsky.feed.generator/${RKEY}` }, 'UnknownFeed'],
    ['no feed', { feed: '' }, 'UnknownFeed'],
    ['limit 0', { limit: '0' }, 'InvalidRequest'],
    ['limit 101', { limit: '101' }, 'InvalidRequest'],
    ['a limit that is not a number', { limit: 'ten' }, 'InvalidRequest'],
    ['a cursor it never handed out', { cursor: 'bm90LWEtY3Vyc29y' }, 'InvalidRequest'],
  ])('%s is a 400 XRPC error that writes nothing', async (_name, params, error) => {
    // Anonymous calls are counted (RATE# items) like any other; nothing else may change.
    const stored = async (): Promise<unknown[]> => (await app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
    const before = await stored();
    const { status, json } = await skeleton(params);
    expect(await stored()).toEqual(before);
    expect(status).toBe(400);
    expect(json.error).toBe(error);
    expect(typeof json.message).toBe('string');
  });

  it('a server with no feed published yet lists no feed and refuses skeletons with a message that says what to do', async () => {
    const bare = createHttpApp({ ctx: app.ctx(), search: createStorySearch(app.ctx()), baseUrl: BASE_URL, allowedOrigins: [] });
    const describeAnswer = await bare.request(`${BASE_URL}/xrpc/app.bsky.feed.describeFeedGenerator`, {
      headers: { host: 'lorebook.test' },
    });
    expect(await describeAnswer.json()).toEqual({ did: 'did:web:lorebook.test', feeds: [] });
    const refused = await bare.request(`${BASE_URL}/xrpc/app.bsky.feed.getFeedSkeleton?feed=${encodeURIComponent(feed)}`, {
      headers: { host: 'lorebook.test' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'UnknownFeed', message: expect.stringContaining('BLUESKY_FEED_PUBLISHER_DID') });
  });
});
