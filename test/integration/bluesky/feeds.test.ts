// lorebook's feeds people can follow (design.md#feeds) against real announcements on the real test
// PDS: stories are published with the real announcer, then the hono app answers as Bluesky's
// AppView would call it — a tag feed, "needs reproducers" rotated per viewer, and
// sendInteractions with service-auth JWTs the PDS itself signs for real viewer accounts
// (com.atproto.server.getServiceAuth), their keys looked up in the PDS's PLC directory.
import { AtpAgent } from '@atproto/api';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import type { HttpEnv } from '../../../src/http/http-env.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-feeds', { rateLimitPerMinute: 1_000_000, anonymousRateLimitPerMinute: 1_000_000 });
const bsky = useBluesky();
const alice = caller('alice');
const SERVICE_DID = 'did:web:lorebook.test';
const SKELETON = 'app.bsky.feed.getFeedSkeleton';
const INTERACTIONS = 'app.bsky.feed.sendInteractions';
const MORE = 'app.bsky.feed.defs#requestMore';
const LESS = 'app.bsky.feed.defs#requestLess';

let hono: Hono<HttpEnv>;
const feeds = { main: '', typescript: '', dynamodb: '', needs: '' };
/** Slugs, oldest first. */
const typescript: string[] = [];
const dynamodb: string[] = [];
const openFails: string[] = [];
let reproduced = '';
let hiddenTs = '';
let privateTs = '';
const postOf = new Map<string, string>();

interface Viewer {
  did: string;
  jwt(lxm: string): Promise<string>;
}
const viewers: Viewer[] = [];

const tagged = (title: string, tags: string): string => storyTitled(title).replace('tags: [dynamodb, idempotency, mcp]', `tags: ${tags}`);
const openFail = (title: string): string =>
  failStory()
    .replace(/^title: .*$/m, `title: ${title}`)
    .replace(/^# .*$/m, `# ${title}`);

async function viewer(name: string): Promise<Viewer> {
  const account = await bsky.pds().createAccount(name);
  const agent = new AtpAgent({ service: bsky.pds().url });
  await agent.login({ identifier: account.handle, password: account.password });
  return {
    did: account.did,
    jwt: async (lxm) => (await agent.com.atproto.server.getServiceAuth({ aud: SERVICE_DID, lxm })).data.token,
  };
}

beforeAll(async () => {
  const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
  const publish = async (markdown: string): Promise<string> => {
    const { slug } = await publishStory(ctx, alice, { markdown });
    await idle();
    return slug;
  };
  for (let index = 0; index < 4; index += 1) typescript.push(await publish(tagged(`TypeScript story ${index}`, '[typescript, node]')));
  for (let index = 0; index < 2; index += 1) dynamodb.push(await publish(storyTitled(`DynamoDB story ${index}`)));
  for (let index = 0; index < 2; index += 1) openFails.push(await publish(openFail(`Still stuck on fonts ${index}`)));
  reproduced = typescript[0] as string;
  for (const name of ['r1', 'r2', 'r3']) await reportReproduction(app.ctx(), caller(name), { slug: reproduced, result: 'worked' });
  hiddenTs = await publish(tagged('TypeScript then hidden', '[typescript]'));
  await setVisibility(ctx, alice, { slug: hiddenTs, hidden: true });
  await idle();
  const { slug } = await publishStory(ctx, alice, {
    markdown: tagged('TypeScript private', '[typescript]').replace('status: n/a\n', 'status: n/a\nvisibility: private\n'),
  });
  privateTs = slug;
  await idle();
  for (const slug of [...typescript, ...dynamodb, ...openFails]) {
    const { announce } = await getStory(app.ctx(), alice, { slug });
    expect(announce.state).toBe('posted');
    postOf.set(slug, announce.uri as string);
  }
  for (let index = 0; index < 6; index += 1) viewers.push(await viewer(`viewer${index}`));

  const publisher = bsky.account().did;
  feeds.main = `at://${publisher}/app.bsky.feed.generator/lorebook`;
  feeds.typescript = `at://${publisher}/app.bsky.feed.generator/tag-typescript`;
  feeds.dynamodb = `at://${publisher}/app.bsky.feed.generator/tag-dynamodb`;
  feeds.needs = `at://${publisher}/app.bsky.feed.generator/needs-repro`;
  hono = createHttpApp({
    ctx: app.ctx(),
    search: createStorySearch(app.ctx()),
    baseUrl: BASE_URL,
    allowedOrigins: [],
    feedGenerator: {
      publisherDid: publisher,
      rkey: 'lorebook',
      tags: ['typescript', 'dynamodb'],
      plcDirectoryUrl: bsky.pds().plc.url,
      allowPrivateFetch: true,
    },
  });
}, 180_000);

interface Answer {
  status: number;
  json: Record<string, unknown>;
}
interface Item {
  post: string;
  feedContext: string;
}

async function skeleton(feed: string, params: Record<string, string> = {}, authorization?: string): Promise<Answer> {
  const response = await hono.request(`${BASE_URL}/xrpc/${SKELETON}?${new URLSearchParams({ feed, ...params }).toString()}`, {
    headers: { host: 'lorebook.test', ...(authorization === undefined ? {} : { authorization }) },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const itemsOf = (answer: Answer): Item[] => answer.json.feed as Item[];
const postsOf = (answer: Answer): string[] => itemsOf(answer).map((item) => item.post);
const posts = (slugs: readonly string[]): string[] => slugs.map((slug) => postOf.get(slug) as string);

/** Every page of a feed, `limit` at a time: the posts in order and how many pages it took. */
async function pageThrough(feed: string, limit: number, authorization?: () => Promise<string>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 30; page += 1) {
    const answer = await skeleton(feed, { limit: String(limit), ...(cursor === undefined ? {} : { cursor }) }, await authorization?.());
    expect(answer.status).toBe(200);
    expect(itemsOf(answer).length).toBeLessThanOrEqual(limit);
    seen.push(...postsOf(answer));
    cursor = answer.json.cursor as string | undefined;
    if (cursor === undefined) return seen;
  }
  throw new Error('the feed never ended');
}

async function send(body: unknown, authorization: string | undefined, contentType = 'application/json'): Promise<Answer> {
  const response = await hono.request(`${BASE_URL}/xrpc/${INTERACTIONS}`, {
    method: 'POST',
    headers: {
      host: 'lorebook.test',
      'content-type': contentType,
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const bearer = async (who: Viewer, lxm = INTERACTIONS): Promise<string> => `Bearer ${await who.jwt(lxm)}`;
const vote = (item: Item, event: string) => ({ item: item.post, event, feedContext: item.feedContext });
const tallyOf = async (feed: string, slug: string): Promise<Record<string, unknown> | undefined> =>
  (await app.state()).find((item) => item.PK === `FEEDTALLY#${feed}#${slug}`);
/** Everything stored but the rate windows (counted per call like any other). */
const stored = async (): Promise<Record<string, unknown>[]> =>
  (await app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

describe('describeFeedGenerator', () => {
  it('lists every feed: the main one, each tag feed and needs reproducers', async () => {
    const response = await hono.request(`${BASE_URL}/xrpc/app.bsky.feed.describeFeedGenerator`, { headers: { host: 'lorebook.test' } });
    expect(await response.json()).toEqual({
      did: SERVICE_DID,
      feeds: [{ uri: feeds.main }, { uri: feeds.typescript }, { uri: feeds.dynamodb }, { uri: feeds.needs }],
    });
  });
});

describe('a tag feed', () => {
  it('lists exactly the announced, listed stories with the tag, newest first, each with its feedContext', async () => {
    const answer = await skeleton(feeds.typescript, { limit: '100' });
    expect(answer.status).toBe(200);
    expect(postsOf(answer)).toEqual(posts([...typescript].reverse()));
    expect(itemsOf(answer).map((item) => item.feedContext)).toEqual(
      [...typescript].reverse().map((slug) => `lorebook:v1:tag:typescript:${slug}`),
    );
    expect(answer.json.cursor).toBeUndefined();
    expect((await skeleton(feeds.dynamodb, { limit: '100' })).json.feed).toEqual(
      [...dynamodb].reverse().map((slug) => ({ post: postOf.get(slug), feedContext: `lorebook:v1:tag:dynamodb:${slug}` })),
    );
  });

  it('never shows a hidden or private story with the tag', async () => {
    expect((await getStory(app.ctx(), alice, { slug: hiddenTs })).announce.state).not.toBe('posted');
    expect((await getStory(app.ctx(), alice, { slug: privateTs })).announce.state).toBe('off');
    const all = await pageThrough(feeds.typescript, 1);
    expect(all).toEqual(posts([...typescript].reverse()));
  });

  // GSI1 is eventually consistent; DynamoDB Local's is not, so the lag is written by hand: a story
  // hidden a moment ago whose index entry still shows and whose post is not deleted yet.
  it('never shows a story hidden a moment ago, while its index entry and its post lag the hide', async () => {
    const slug = await publishStory(app.ctx(), alice, { markdown: tagged('TypeScript hidden just now', '[typescript]') }).then(
      (r) => r.slug,
    );
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    const story = await getStory(app.ctx(), alice, { slug });
    await app.ctx().store.client.send(
      new UpdateCommand({
        TableName: app.ctx().store.tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, bsky_uri = :uri',
        ExpressionAttributeValues: {
          ':pk': `FEED#${story.published_at.slice(0, 7)}`,
          ':sk': `${story.published_at}#${slug}`,
          ':uri': `at://${bsky.account().did}/app.bsky.feed.post/3laggingpost22`,
        },
      }),
    );
    expect(await pageThrough(feeds.typescript, 2)).toEqual(posts([...typescript].reverse()));
    expect(postsOf(await skeleton(feeds.needs, { limit: '100' }))).not.toContain(
      `at://${bsky.account().did}/app.bsky.feed.post/3laggingpost22`,
    );
    await app.ctx().store.client.send(
      new UpdateCommand({
        TableName: app.ctx().store.tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        UpdateExpression: 'REMOVE GSI1PK, GSI1SK, bsky_uri',
      }),
    );
  });

  it.each([1, 2, 3])('pages of %i hand out every tagged post exactly once, and the last page has no cursor', async (limit) => {
    expect(await pageThrough(feeds.typescript, limit)).toEqual(posts([...typescript].reverse()));
  });
});

describe('the needs-reproducers feed', () => {
  // The rotation changes every hour: a run that crossed the hour between two calls saw two orders.
  beforeAll(() => app.freeze());
  const candidates = (): string[] => posts([...typescript.filter((slug) => slug !== reproduced), ...dynamodb, ...openFails]).sort();

  it('holds the open fail stories and the stories fewer than three people reproduced, nothing else', async () => {
    const answer = await skeleton(feeds.needs, { limit: '100' }, await bearer(viewers[0] as Viewer, SKELETON));
    expect(answer.status).toBe(200);
    expect([...postsOf(answer)].sort()).toEqual(candidates());
    expect(postsOf(answer)).not.toContain(postOf.get(reproduced));
    expect(itemsOf(answer).every((item) => item.feedContext.startsWith('lorebook:v1:needs-reproducers:'))).toBe(true);
  });

  it('gives viewers different orders (not everyone starts on the same story), each stable for its viewer', async () => {
    const orders: string[][] = [];
    for (const who of viewers) orders.push(postsOf(await skeleton(feeds.needs, { limit: '100' }, await bearer(who, SKELETON))));
    expect(new Set(orders.map((order) => order[0])).size).toBeGreaterThan(1);
    expect(new Set(orders.map((order) => order.join(' '))).size).toBe(viewers.length);
    const again = postsOf(await skeleton(feeds.needs, { limit: '100' }, await bearer(viewers[0] as Viewer, SKELETON)));
    expect(again).toEqual(orders[0]);
  });

  it.each([1, 3])('paging %i at a time, every viewer reaches every candidate exactly once', async (limit) => {
    for (const who of viewers.slice(0, 3)) {
      const seen = await pageThrough(feeds.needs, limit, () => bearer(who, SKELETON));
      expect([...seen].sort()).toEqual(candidates());
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('answers anonymous requests too, in the order of the hour', async () => {
    const answer = await skeleton(feeds.needs, { limit: '100' });
    expect(answer.status).toBe(200);
    expect([...postsOf(answer)].sort()).toEqual(candidates());
  });
});

describe('what a skeleton page costs', () => {
  it.each([
    ['a tag feed', () => feeds.typescript, false],
    ['needs reproducers, for a viewer', () => feeds.needs, true],
  ])(
    '%s: key-ordered reads only (a Query per month shard, BatchGetItems), never a Scan, in a few round trips',
    async (_name, feed, signed) => {
      const authorization = signed ? await bearer(viewers[0] as Viewer, SKELETON) : undefined;
      app.counter().reset();
      expect((await skeleton(feed(), { limit: '100' }, authorization)).status).toBe(200);
      const counts = app.counter().snapshot();
      expect(counts.Scan ?? 0).toBe(0);
      // The months item, one month's Query, one BatchGetItem of META, one of the tallies; the visit's rate window.
      expect(counts).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 2, UpdateItem: 1 });
    },
  );
});

describe('getFeedSkeleton refusals', () => {
  it.each([
    ['a feed of another account', () => `at://did:plc:someoneelse/app.bsky.feed.generator/tag-typescript`, {}, 400, 'UnknownFeed'],
    ['a tag that has no feed', () => feeds.typescript.replace('tag-typescript', 'tag-rust'), {}, 400, 'UnknownFeed'],
    ['limit 0', () => feeds.typescript, { limit: '0' }, 400, 'InvalidRequest'],
    ['limit 101', () => feeds.needs, { limit: '101' }, 400, 'InvalidRequest'],
    ['a cursor the tag feed never handed out', () => feeds.typescript, { cursor: 'bm90LWEtY3Vyc29y' }, 400, 'InvalidRequest'],
    ['a cursor the needs feed never handed out', () => feeds.needs, { cursor: 'eyJzbG90IjotMX0' }, 400, 'InvalidRequest'],
  ])('%s is an XRPC error that writes nothing', async (_name, feed, params, status, error) => {
    const before = await stored();
    const answer = await skeleton(feed(), params);
    expect(await stored()).toEqual(before);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ error, message: expect.any(String) });
  });

  it('a needs-reproducers request with a JWT that does not check out is refused, not served as anonymous', async () => {
    const forOtherMethod = await bearer(viewers[0] as Viewer, INTERACTIONS);
    expect((await skeleton(feeds.needs, {}, forOtherMethod)).json.error).toBe('BadJwtLexiconMethod');
    expect((await skeleton(feeds.needs, {}, 'Bearer not.a.jwt')).json.error).toBe('BadJwt');
  });
});

describe('sendInteractions', () => {
  /** A fresh top item of the typescript feed, as a viewer's client got it. */
  const tsItem = async (slug: string): Promise<Item> =>
    itemsOf(await skeleton(feeds.typescript, { limit: '100' })).find((item) => item.feedContext.endsWith(`:${slug}`)) as Item;

  it('show more is recorded once per viewer, and ranks the story first on its page later', async () => {
    const oldest = typescript[0] as string;
    const item = await tsItem(oldest);
    const who = viewers[0] as Viewer;
    const first = await send({ feed: feeds.typescript, interactions: [vote(item, MORE)] }, await bearer(who));
    expect(first).toEqual({ status: 200, json: {} });
    expect(await tallyOf('tag:typescript', oldest)).toMatchObject({ more: [who.did], post: item.post });
    const after = await stored();

    // The same interaction again, in a new request with a new JWT: nothing changes but the op record.
    expect((await send({ interactions: [vote(item, MORE)] }, await bearer(who))).status).toBe(200);
    expect((await stored()).filter((entry) => !String(entry.PK).startsWith('OP#'))).toEqual(
      after.filter((entry) => !String(entry.PK).startsWith('OP#')),
    );

    const page = postsOf(await skeleton(feeds.typescript, { limit: '100' }));
    expect(page[0]).toBe(item.post);
    expect(page.slice(1)).toEqual(posts([...typescript].reverse().filter((slug) => slug !== oldest)));
  });

  it('16 parallel deliveries of one vote, each with its own JWT, count it once', async () => {
    const slug = typescript[1] as string;
    const item = await tsItem(slug);
    const who = viewers[1] as Viewer;
    const tokens = await Promise.all(Array.from({ length: 16 }, () => bearer(who)));
    const answers = await Promise.all(tokens.map((token) => send({ interactions: [vote(item, LESS)] }, token)));
    expect(answers.map((answer) => answer.status)).toEqual(new Array(16).fill(200));
    expect(await tallyOf('tag:typescript', slug)).toMatchObject({ less: [who.did] });
    expect((await tallyOf('tag:typescript', slug))?.more).toBeUndefined();
    // Ranked last on its page: a negative score.
    expect(postsOf(await skeleton(feeds.typescript, { limit: '100' })).at(-1)).toBe(item.post);
  });

  it('16 parallel deliveries of the same request (one JWT) apply it once', async () => {
    const slug = dynamodb[0] as string;
    const item = itemsOf(await skeleton(feeds.dynamodb, { limit: '100' })).find((entry) => entry.feedContext.endsWith(`:${slug}`)) as Item;
    const token = await bearer(viewers[2] as Viewer);
    const answers = await Promise.all(Array.from({ length: 16 }, () => send({ interactions: [vote(item, MORE)] }, token)));
    expect(answers.map((answer) => answer.status)).toEqual(new Array(16).fill(200));
    expect(await tallyOf('tag:dynamodb', slug)).toMatchObject({ more: [viewers[2]?.did] });
    expect((await app.allItems()).filter((entry) => String(entry.PK) === `OP#${viewers[2]?.did}`)).toHaveLength(1);
  });

  it('a viewer who changes its mind moves from more to less; a replayed older request does not move it back', async () => {
    const slug = typescript[2] as string;
    const item = await tsItem(slug);
    const who = viewers[3] as Viewer;
    const moreToken = await bearer(who);
    expect((await send({ interactions: [vote(item, MORE)] }, moreToken)).status).toBe(200);
    expect((await send({ interactions: [vote(item, LESS)] }, await bearer(who))).status).toBe(200);
    expect(await tallyOf('tag:typescript', slug)).toMatchObject({ less: [who.did] });
    const before = await stored();
    // The first request delivered again (a retry of a lost response): answered, never re-applied.
    expect(await send({ interactions: [vote(item, MORE)] }, moreToken)).toEqual({ status: 200, json: {} });
    expect(await stored()).toEqual(before);
    expect((await tallyOf('tag:typescript', slug))?.more).toBeUndefined();
  });

  it('the same JWT (its jti) sent again with other votes is refused and writes nothing', async () => {
    const item = await tsItem(typescript[3] as string);
    const token = await bearer(viewers[3] as Viewer);
    expect((await send({ interactions: [vote(item, MORE)] }, token)).status).toBe(200);
    const before = await stored();
    const other = await send({ interactions: [vote(item, LESS)] }, token);
    expect(other).toMatchObject({
      status: 400,
      json: { error: 'InvalidRequest', message: expect.stringContaining('JWT was already used') },
    });
    expect(await stored()).toEqual(before);
  });

  it('votes from different viewers add up; seen and clickthrough events are accepted and not stored', async () => {
    const slug = openFails[0] as string;
    const answer = await skeleton(feeds.needs, { limit: '100' }, await bearer(viewers[4] as Viewer, SKELETON));
    const item = itemsOf(answer).find((entry) => entry.feedContext.endsWith(`:${slug}`)) as Item;
    for (const who of viewers.slice(4, 6)) {
      const body = {
        interactions: [
          { item: item.post, event: 'app.bsky.feed.defs#interactionSeen', feedContext: item.feedContext },
          vote(item, MORE),
          { item: item.post, event: 'app.bsky.feed.defs#clickthroughItem', feedContext: item.feedContext },
        ],
      };
      expect((await send(body, await bearer(who))).status).toBe(200);
    }
    expect(await tallyOf('needs-reproducers', slug)).toMatchObject({ more: [viewers[4]?.did, viewers[5]?.did].sort() });
    // Only seen events: nothing at all is written, not even an op record.
    const before = await stored();
    const seen = { interactions: [{ item: item.post, event: 'app.bsky.feed.defs#interactionSeen', feedContext: item.feedContext }] };
    expect((await send(seen, await bearer(viewers[4] as Viewer))).status).toBe(200);
    expect(await stored()).toEqual(before);
  });

  it('a vote on a post the feed never served (another post, a hidden story, a tag it lacks) tallies nothing', async () => {
    const before = await stored();
    const who = viewers[5] as Viewer;
    const wrongPost = { item: postOf.get(dynamodb[0] as string), event: MORE, feedContext: `lorebook:v1:tag:typescript:${typescript[3]}` };
    const hidden = { item: postOf.get(typescript[3] as string), event: MORE, feedContext: `lorebook:v1:tag:typescript:${hiddenTs}` };
    const untagged = { item: postOf.get(dynamodb[1] as string), event: MORE, feedContext: `lorebook:v1:tag:typescript:${dynamodb[1]}` };
    const foreign = { item: postOf.get(dynamodb[1] as string), event: MORE, feedContext: 'someone-elses-context' };
    expect((await send({ interactions: [wrongPost, hidden, untagged, foreign] }, await bearer(who))).status).toBe(200);
    expect((await stored()).filter((entry) => String(entry.PK).startsWith('FEEDTALLY#'))).toEqual(
      before.filter((entry) => String(entry.PK).startsWith('FEEDTALLY#')),
    );
  });
});

describe('sendInteractions refusals write nothing', () => {
  const someVote = (): Record<string, unknown> => ({
    item: postOf.get(typescript[3] as string),
    event: MORE,
    feedContext: `lorebook:v1:tag:typescript:${typescript[3]}`,
  });

  const cases: Array<[string, () => Promise<{ body: unknown; auth: string | undefined; type?: string }>, number, string]> = [
    ['no JWT', async () => ({ body: { interactions: [someVote()] }, auth: undefined }), 401, 'AuthenticationRequired'],
    ['not a JWT', async () => ({ body: { interactions: [someVote()] }, auth: 'Bearer abc.def.ghi' }), 401, 'BadJwt'],
    ['not a bearer token', async () => ({ body: { interactions: [someVote()] }, auth: 'Basic dXNlcjpwYXNz' }), 401, 'BadJwt'],
    [
      'a JWT for another method',
      async () => ({ body: { interactions: [someVote()] }, auth: await bearer(viewers[0] as Viewer, SKELETON) }),
      401,
      'BadJwtLexiconMethod',
    ],
    [
      'a JWT whose iss was swapped for another viewer',
      async () => {
        const [header, payload, signature] = (await (viewers[0] as Viewer).jwt(INTERACTIONS)).split('.') as [string, string, string];
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...claims, iss: viewers[1]?.did }), 'utf8').toString('base64url');
        return { body: { interactions: [someVote()] }, auth: `Bearer ${header}.${forged}.${signature}` };
      },
      401,
      'BadJwtSignature',
    ],
    [
      'a body that is not JSON',
      async () => ({ body: '{"interactions": [', auth: await bearer(viewers[0] as Viewer) }),
      400,
      'InvalidRequest',
    ],
    [
      'a body sent as text/plain',
      async () => ({ body: { interactions: [someVote()] }, auth: await bearer(viewers[0] as Viewer), type: 'text/plain' }),
      400,
      'InvalidRequest',
    ],
    [
      'interactions that are not a list',
      async () => ({ body: { interactions: 'more please' }, auth: await bearer(viewers[0] as Viewer) }),
      400,
      'InvalidRequest',
    ],
    [
      'an item that is not an at-uri',
      async () => ({ body: { interactions: [{ ...someVote(), item: 'https://bsky.app/x' }] }, auth: await bearer(viewers[0] as Viewer) }),
      400,
      'InvalidRequest',
    ],
    [
      'more than 500 interactions',
      async () => ({
        body: { interactions: new Array(501).fill({ event: 'app.bsky.feed.defs#interactionSeen' }) },
        auth: await bearer(viewers[0] as Viewer),
      }),
      400,
      'InvalidRequest',
    ],
    [
      'votes on more than 30 stories in one call',
      async () => ({
        body: {
          interactions: Array.from({ length: 31 }, (_, index) => ({
            ...someVote(),
            feedContext: `lorebook:v1:main:2026-01-01-story-${index}`,
          })),
        },
        auth: await bearer(viewers[0] as Viewer),
      }),
      400,
      'InvalidRequest',
    ],
    [
      'a feed that is not ours',
      async () => ({
        body: { feed: 'at://did:plc:x/app.bsky.feed.generator/y', interactions: [someVote()] },
        auth: await bearer(viewers[0] as Viewer),
      }),
      400,
      'UnknownFeed',
    ],
    [
      'a body over 256 KiB',
      async () => ({ body: { interactions: [someVote()], padding: 'x'.repeat(300 * 1024) }, auth: await bearer(viewers[0] as Viewer) }),
      413,
      'PayloadTooLarge',
    ],
  ];

  it.each(cases)('%s', async (_name, make, status, error) => {
    const { body, auth, type } = await make();
    const before = await stored();
    const answer = await send(body, auth, type);
    expect(await stored()).toEqual(before);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ error, message: expect.any(String) });
  });

  it('an expired JWT is refused', async () => {
    const token = await bearer(viewers[0] as Viewer);
    const before = await stored();
    app.advance(2 * 60 * 60 * 1000);
    try {
      const answer = await send({ interactions: [someVote()] }, token);
      expect(answer.status).toBe(401);
      expect(answer.json.error).toBe('JwtExpired');
    } finally {
      app.advance(-2 * 60 * 60 * 1000);
    }
    expect(await stored()).toEqual(before);
  });

  it('a JWT for another feed generator is refused', async () => {
    const account = await bsky.pds().createAccount('elsewhere');
    const agent = new AtpAgent({ service: bsky.pds().url });
    await agent.login({ identifier: account.handle, password: account.password });
    const { token } = (await agent.com.atproto.server.getServiceAuth({ aud: 'did:web:other.example', lxm: INTERACTIONS })).data;
    const before = await stored();
    const answer = await send({ interactions: [someVote()] }, `Bearer ${token}`);
    expect(await stored()).toEqual(before);
    expect(answer).toMatchObject({ status: 401, json: { error: 'BadJwtAudience' } });
  });
});
