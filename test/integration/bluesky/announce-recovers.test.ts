// Announcing recovers after an outage of any shape. The real PDS sits behind a TCP fault proxy
// (test/helpers/tcp-fault-proxy.ts) that refuses, destroys every connection, hangs (silencing open
// connections for good) or answers 503; a story is published through the hono app while it does,
// then the proxy forwards again. The settings are read as `npm start` reads them (readConfig +
// buildAnnouncer: a 1 s backoff, a 5 min sweep interval) and the sweep timer is the one
// `npm start` runs. The post must appear exactly once on the PDS (listRecords) within a minute of
// the PDS answering again — on the backoff schedule, never by waiting out the sweep interval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_SIGN_IN_MS } from '../../../integrations/bluesky/bluesky-client.ts';
import { buildAnnouncer } from '../../../src/announcer-from-config.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { readConfig } from '../../../src/config.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import type { Announcer } from '../../../src/outbox/announce/announcer.ts';
import { scheduleAnnounceSweeps, sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { type ProxyMode, startTcpFaultProxy, type TcpFaultProxy } from '../../helpers/tcp-fault-proxy.ts';

// Its author's account is minted a second before it publishes: established at once here (design.md#new-accounts).
const app = useAppFixture('bluesky-announce-recovers', { newAccountHours: 0 });
const bsky = useBluesky();
let proxy: TcpFaultProxy | undefined;
const tcp = (): TcpFaultProxy => proxy as TcpFaultProxy;

beforeAll(async () => {
  proxy = await startTcpFaultProxy({ port: bsky.pds().port });
});
afterAll(async () => {
  await proxy?.close();
});

/** Each hung call ends here; long enough for a password check on a loaded machine. */
const TIMEOUT_MS = 4_000;
/** The minute; the backoff (1 s, doubling) puts the retry within seconds on a calm machine. */
const RECOVERY_BOUND_MS = 60_000;
/** Longer than the bound, so only a timer that follows the retries can meet it. */
const SWEEP_INTERVAL_MS = '300000';
const POLL_MS = 100;
/** How long each outage lasts after the attempt right after publishing failed. */
const OUTAGE_MS = 2_500;
/** The outage, the bound after it, and room for a loaded machine. */
const SHAPE_TEST_MS = 120_000;

/** An announcer configured as `npm start` configures it, through the proxy, cold (not signed in); and the sweep interval. */
function announcer(): Announcer & { logs: string[]; intervalMs: number } {
  const logs: string[] = [];
  const config = readConfig({
    BLUESKY_SERVICE: tcp().url,
    BLUESKY_IDENTIFIER: bsky.account().handle,
    BLUESKY_APP_PASSWORD: bsky.account().appPassword,
    LOREBOOK_ANNOUNCE_BACKOFF_MS: '1000',
    LOREBOOK_ANNOUNCE_TIMEOUT_MS: String(TIMEOUT_MS),
    LOREBOOK_ANNOUNCE_SWEEP_INTERVAL_MS: SWEEP_INTERVAL_MS,
    LOREBOOK_BASE_URL: BASE_URL,
  });
  const built = buildAnnouncer(config, (line) => void logs.push(line)) as Announcer;
  return { ...built, log: (line) => void logs.push(line), logs, intervalMs: config.bluesky?.sweepIntervalMs as number };
}

/** Publishes through the hono app (POST /v1/stories), as an agent would; answers the slug. */
async function publishOverHttp(ctx: Parameters<typeof createHttpApp>[0]['ctx'], title: string): Promise<string> {
  const hono = createHttpApp({
    ctx,
    search: createStorySearch(ctx),
    baseUrl: BASE_URL,
    allowedOrigins: [],
    clientAddress: () => '127.0.0.1',
  });
  const { token } = await createToken(ctx, { handle: 'alice', expiresInSeconds: 3600 });
  const response = await hono.request(`${BASE_URL}/v1/stories`, {
    method: 'POST',
    headers: { host: 'lorebook.test', authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
    body: storyTitled(title),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { slug: string }).slug;
}

const alice = caller('alice');
const stateOf = async (slug: string) => (await getStory(app.ctx(), alice, { slug })).announce;

/** Polls until the story is posted or the bound passes; answers the time it took from `since`. */
async function postedWithin(slug: string, since: number, boundMs: number): Promise<number> {
  while (performance.now() - since < boundMs) {
    if ((await stateOf(slug)).state === 'posted') return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${slug} was not posted within ${boundMs} ms of the PDS answering again: ${JSON.stringify(await stateOf(slug))}`);
}

/**
 * The state once the first attempt has failed. The sweep timer runs at once and may claim the new
 * story before the attempt after publishing does (that one then finds it held elsewhere and ends
 * without an error of its own), so this waits for whichever attempt holds the claim, up to two of
 * its timeouts.
 */
async function firstFailure(slug: string): Promise<Awaited<ReturnType<typeof stateOf>>> {
  const since = performance.now();
  let state = await stateOf(slug);
  while (!('last_error' in state) && performance.now() - since < 2 * TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    state = await stateOf(slug);
  }
  return state;
}

async function expectPostedOnce(slug: string): Promise<void> {
  const posts = await bsky.postsFor(slug);
  expect(posts).toHaveLength(1);
  expect(await stateOf(slug)).toEqual({ state: 'posted', uri: posts[0]?.uri });
}

const OUTAGES: { mode: ProxyMode; what: string; error: RegExp }[] = [
  { mode: 'refuse', what: 'connections refused (the listener is gone)', error: /could not be reached.*ECONNREFUSED/ },
  { mode: 'destroy', what: 'every connection destroyed', error: /could not be reached/ },
  { mode: 'hang', what: 'a hang (accepted, never answered; those connections stay dead after)', error: /did not answer in time/ },
  { mode: '503', what: 'every request answered 503', error: /failed with 503/ },
];

describe('after an outage of any shape, the owed post goes out exactly once, soon after the PDS answers again', () => {
  for (const { mode, what, error } of OUTAGES) {
    it(
      `${what}: published during it, posted once within ${RECOVERY_BOUND_MS / 1000} s of the restore by the npm start sweep timer (1 s backoff, 5 min interval)`,
      async () => {
        const announcing = announcer();
        const { ctx, idle } = withAnnouncing(app.ctx(), announcing);
        await tcp().set(mode);
        const schedule = scheduleAnnounceSweeps(ctx, announcing, announcing.intervalMs);
        try {
          const slug = await publishOverHttp(ctx, `Published while Bluesky was down with ${mode}`);
          await idle();
          expect(await firstFailure(slug)).toEqual({ state: 'pending', last_error: expect.stringMatching(error) });
          // The outage goes on for a while: the retries that fall in it fail too.
          await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
          expect(await stateOf(slug)).toMatchObject({ state: 'pending' });

          await tcp().set('forward');
          const restoredAt = performance.now();
          await postedWithin(slug, restoredAt, RECOVERY_BOUND_MS);
          await expectPostedOnce(slug);
        } finally {
          await schedule.stop();
          await idle();
          await tcp().set('forward');
        }
      },
      SHAPE_TEST_MS,
    );
  }
});

describe('a sign-in that failed never blocks later ones; each attempt uses a fresh connection', () => {
  it('a sign-in stuck on a hung connection is not inherited: an attempt after the restore signs in afresh and posts at once', async () => {
    const announcing = announcer();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcing);
    await tcp().set('hang');
    const stuck = await publishOverHttp(ctx, 'Its sign-in hung');
    // The first attempt's sign-in is in flight on a connection that will never answer, past the
    // time a sign-in is shared and well before its own timeout.
    await new Promise((resolve) => setTimeout(resolve, SHARE_SIGN_IN_MS + 500));
    await tcp().set('forward');
    const later = await publishOverHttp(ctx, 'Published after the restore');
    await idle();
    // Its own attempt posted it, instead of failing with the stuck sign-in's timeout.
    expect(await stateOf(later)).toMatchObject({ state: 'posted' });
    await expectPostedOnce(later);
    expect((await stateOf(stuck)).last_error).toMatch(/sign-in: .* did not answer in time/);
    app.advance(60_000);
    await sweepAnnouncements(app.ctx(), announcing);
    await expectPostedOnce(stuck);
  });

  it('a pooled connection an outage silenced is never reused: the first attempt after the restore posts on a fresh one', async () => {
    const announcing = announcer();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcing);
    // Signed in and posted: with keep-alive, the connection would now wait in the pool.
    const warm = await publishOverHttp(ctx, 'Posted before a short hang');
    await idle();
    await expectPostedOnce(warm);
    // A blip: every open connection goes silent for good, new ones are answered again at once.
    await tcp().set('hang');
    await tcp().set('forward');
    const before = tcp().accepted();
    const slug = await publishOverHttp(ctx, 'Published right after the blip');
    await idle();
    expect(await stateOf(slug)).toMatchObject({ state: 'posted' });
    expect(tcp().accepted()).toBeGreaterThan(before);
    await expectPostedOnce(slug);
  });
});
