// The feed skeleton's rate limit against Bluesky's AppView (design.md#feeds): the AppView asks from a
// few shared addresses on behalf of every viewer, so a request with a service-auth JWT that
// checks out counts against the viewer DID's budget, one without (or with one that does not check
// out) against the IP. Real viewer accounts on the real test PDS sign the JWTs
// (com.atproto.server.getServiceAuth); every request comes from one address, as the AppView's do.
import { AtpAgent } from '@atproto/api';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS } from '../../../src/app/context/rate-limit.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import type { HttpEnv } from '../../../src/http/http-env.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';

const VIEWER_BUDGET = 40;
const IP_BUDGET = 60;
const app = useAppFixture('bluesky-feed-rate', { rateLimitPerMinute: VIEWER_BUDGET, anonymousRateLimitPerMinute: IP_BUDGET });
const bsky = useBluesky();
const SERVICE_DID = 'did:web:lorebook.test';
const SKELETON = 'app.bsky.feed.getFeedSkeleton';
const INTERACTIONS = 'app.bsky.feed.sendInteractions';
const APPVIEW_ADDRESS = '203.0.113.7';

let hono: Hono<HttpEnv>;
let mainFeed = '';
let needsFeed = '';
/** One skeleton JWT and one sendInteractions JWT per viewer (a skeleton JWT may be sent many times within its life). */
const viewers: Array<{ skeleton: string; interactions: string }> = [];

beforeAll(async () => {
  for (let index = 0; index < 3; index += 1) {
    const account = await bsky.pds().createAccount(`rater${index}`);
    const agent = new AtpAgent({ service: bsky.pds().url });
    await agent.login({ identifier: account.handle, password: account.password });
    // Long-lived (30 min): each test moves the clock a rate window on, and the tokens must outlive that.
    const exp = Math.floor(Date.now() / 1000) + 30 * 60;
    const jwt = async (lxm: string): Promise<string> =>
      `Bearer ${(await agent.com.atproto.server.getServiceAuth({ aud: SERVICE_DID, lxm, exp })).data.token}`;
    viewers.push({ skeleton: await jwt(SKELETON), interactions: await jwt(INTERACTIONS) });
  }
  const publisher = bsky.account().did;
  mainFeed = `at://${publisher}/app.bsky.feed.generator/lorebook`;
  needsFeed = `at://${publisher}/app.bsky.feed.generator/needs-repro`;
  hono = createHttpApp({
    ctx: app.ctx(),
    search: createStorySearch(app.ctx()),
    baseUrl: BASE_URL,
    allowedOrigins: [],
    clientAddress: () => APPVIEW_ADDRESS,
    feedGenerator: { publisherDid: publisher, rkey: 'lorebook', tags: [], plcDirectoryUrl: bsky.pds().plc.url, allowPrivateFetch: true },
  });
  // One rate window for the whole of each test, however slow the machine; each test moves to a fresh one.
  app.freeze();
}, 180_000);

const viewer = (index: number): { skeleton: string; interactions: string } => viewers[index] as { skeleton: string; interactions: string };

async function skeleton(feed: string, authorization?: string): Promise<Response> {
  return hono.request(`${BASE_URL}/xrpc/${SKELETON}?${new URLSearchParams({ feed }).toString()}`, {
    headers: { host: 'lorebook.test', ...(authorization === undefined ? {} : { authorization }) },
  });
}

/** Everything stored but the rate windows. */
const stored = async (): Promise<Record<string, unknown>[]> =>
  (await app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

async function expectXrpcRateRefusal(response: Response, limit: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ error: 'RateLimitExceeded', message: expect.stringContaining(`${limit} per minute`) });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe('0');
  expect(response.headers.get('ratelimit')).toMatch(/r=0/);
}

describe('getFeedSkeleton with verified viewers', () => {
  it("serves 61+ calls from one address when they carry different viewers' JWTs, then refuses a viewer past its own budget with an XRPC 429", async () => {
    app.advance(RATE_WINDOW_MS);
    const before = await stored();
    const calls = IP_BUDGET + 3;
    for (let call = 0; call < calls; call += 1) {
      const response = await skeleton(call % 2 === 0 ? mainFeed : needsFeed, viewer(call % 3).skeleton);
      expect(response.status, `call ${call + 1}`).toBe(200);
      expect(await response.json()).toMatchObject({ feed: expect.any(Array) });
    }
    // Viewer 0 has made 21 calls: its budget is its own, and the other viewers' calls never touched it.
    for (let call = calls / 3; call < VIEWER_BUDGET; call += 1) expect((await skeleton(mainFeed, viewer(0).skeleton)).status).toBe(200);
    await expectXrpcRateRefusal(await skeleton(mainFeed, viewer(0).skeleton), VIEWER_BUDGET);
    expect((await skeleton(mainFeed, viewer(1).skeleton)).status).toBe(200);
    // Nor did any of them touch the address's budget: an anonymous call is still served.
    expect((await skeleton(mainFeed)).status).toBe(200);
    expect(await stored()).toEqual(before);
  });
});

describe('getFeedSkeleton without a verified viewer', () => {
  it('counts calls without a JWT, or with one that does not check out on a feed that needs none, against the address, refused past it with an XRPC 429', async () => {
    app.advance(RATE_WINDOW_MS);
    const before = await stored();
    const forAnotherMethod = viewer(0).interactions;
    for (let call = 0; call < IP_BUDGET; call += 1) {
      const response = await skeleton(mainFeed, call % 2 === 0 ? undefined : forAnotherMethod);
      expect(response.status, `call ${call + 1}`).toBe(200);
    }
    await expectXrpcRateRefusal(await skeleton(mainFeed), IP_BUDGET);
    await expectXrpcRateRefusal(await skeleton(mainFeed, forAnotherMethod), IP_BUDGET);
    // A verified viewer is still served from the same address.
    expect((await skeleton(mainFeed, viewer(2).skeleton)).status).toBe(200);
    expect(await stored()).toEqual(before);
  });

  it('on "needs reproducers" a JWT that does not check out is still refused (401), and counted against the address', async () => {
    app.advance(RATE_WINDOW_MS);
    const response = await skeleton(needsFeed, viewer(0).interactions);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'BadJwtLexiconMethod' });
    expect(response.headers.get('ratelimit-remaining')).toBe(String(IP_BUDGET - 1));
  });
});

describe('other XRPC failures', () => {
  it("a sendInteractions call past the viewer's budget is an XRPC 429 with Retry-After and RateLimit headers", async () => {
    app.advance(RATE_WINDOW_MS);
    const send = async (): Promise<Response> =>
      hono.request(`${BASE_URL}/xrpc/${INTERACTIONS}`, {
        method: 'POST',
        headers: { host: 'lorebook.test', 'content-type': 'application/json', authorization: viewer(1).interactions },
        body: JSON.stringify({ interactions: [] }),
      });
    for (let call = 0; call < VIEWER_BUDGET; call += 1) expect((await send()).status, `call ${call + 1}`).toBe(200);
    await expectXrpcRateRefusal(await send(), VIEWER_BUDGET);
  });

  it('an unknown /xrpc method is an XRPC error, not problem+json', async () => {
    const response = await hono.request(`${BASE_URL}/xrpc/app.bsky.feed.noSuchMethod`, { headers: { host: 'lorebook.test' } });
    expect(response.status).toBe(501);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: 'MethodNotImplemented', message: expect.any(String) });
  });
});
