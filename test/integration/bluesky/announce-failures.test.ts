// The announce protocol against a real PDS when things go wrong, counting posts with
// listRecords: a lost response, a worker that died holding its claim, a late worker whose claim
// was taken over, 429 with retry-after, a wrong app password, a hung PDS. The store clock is
// moved forward instead of waiting out backoffs and stale claims.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { claimAnnounce } from '../../../src/store/story/announce/items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { TEST_ANNOUNCE_SETTINGS, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-announce-failures');
const bsky = useBluesky();
const alice = caller('alice');
const CREATE = 'com.atproto.repo.createRecord';
const SIGN_IN = 'com.atproto.server.createSession';
const iso = (ms: number): string => new Date(ms).toISOString();

async function publish(title: string): Promise<string> {
  return (await publishStory(app.ctx(), alice, { markdown: storyTitled(title) })).slug;
}

describe('an ambiguous failure is settled by looking at the record key, never by posting again', () => {
  it('post committed on the PDS but the answer lost: no second post; the sweeper finds the record at the key and records its uri', async () => {
    const announcer = bsky.announcer();
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    bsky.proxy().inject(CREATE, { kind: 'drop-after-forward' });
    const before = bsky.proxy().seen(CREATE);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('The answer got lost') });
    await idle();
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    const released = (await getStory(app.ctx(), alice, { slug })).announce;
    expect(released.state).toBe('pending');
    expect(released.last_error).toMatch(/could not be reached/);

    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    const report = await sweepAnnouncements(app.ctx(), announcer);
    expect(report.results.find((result) => result.slug === slug)).toMatchObject({ outcome: 'adopted', attempt: 2 });
    const [post, ...more] = await bsky.postsFor(slug);
    expect(more).toHaveLength(0);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: post?.uri });
    expect(bsky.proxy().seen(CREATE) - before).toBe(1);
  });

  it('a crash after claiming and before posting leaves a stale claim: the sweeper waits it out, takes it over and posts once', async () => {
    const announcer = bsky.announcer();
    const slug = await publish('Crashed while holding the claim');
    const now = app.ctx().store.now();
    // What a worker that died right after its claim leaves behind.
    await writeAtomically(app.ctx().store, [
      claimAnnounce({ slug, claimId: 'dead-worker', claimedAt: iso(now), staleAt: iso(now + TEST_ANNOUNCE_SETTINGS.staleClaimMs) }),
    ]);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'pending' });
    expect((await sweepAnnouncements(app.ctx(), announcer)).results.map((result) => result.slug)).not.toContain(slug);
    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'held_elsewhere' });

    app.advance(TEST_ANNOUNCE_SETTINGS.staleClaimMs + 1);
    const report = await sweepAnnouncements(app.ctx(), announcer);
    expect(report.results.find((result) => result.slug === slug)).toMatchObject({ outcome: 'posted', attempt: 2 });
    const posts = await bsky.postsFor(slug);
    expect(posts).toHaveLength(1);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
  });

  it('a late worker whose stale claim was taken over can neither release nor record: the claim id fences it out', async () => {
    const announcer = bsky.announcer();
    const slug = await publish('The late worker is fenced out');
    const late = bsky.proxy().hold(CREATE);
    const lateAttempt = announceStory(app.ctx(), announcer, slug);
    await late.arrived;

    app.advance(TEST_ANNOUNCE_SETTINGS.staleClaimMs + 1);
    const taker = bsky.proxy().hold(CREATE);
    const takeover = announceStory(app.ctx(), announcer, slug);
    await taker.arrived;
    // The late worker hears a 503 and tries to give its claim back while the new holder posts.
    late.fail(503);
    expect(await lateAttempt).toMatchObject({ outcome: 'lost_claim' });
    taker.forward();
    expect(await takeover).toMatchObject({ outcome: 'posted' });

    const posts = await bsky.postsFor(slug);
    expect(posts).toHaveLength(1);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
  });
});

describe('a record at the story’s key that is not this story’s post', () => {
  it('is never overwritten: the PDS refuses the create, the look-up finds a stranger, the story is failed and the log says so loudly', async () => {
    const announcer = bsky.announcer();
    const slug = await publish('Someone else sits at my key');
    const meta = (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
    // Another post at exactly this story's record key, linking somewhere else.
    const stranger = await bsky.client().create({
      slug,
      publishedAt: String(meta?.published_at),
      title: 'Not this story',
      summary: 'A stranger.',
      authorHandle: 'someone.test',
      tags: [],
      url: 'https://elsewhere.test/post',
    });

    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({
      outcome: 'retry_later',
      error: expect.stringMatching(/failed with 500/),
    });
    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'failed', attempt: 2 });

    const announce = (await getStory(app.ctx(), alice, { slug })).announce;
    expect(announce).toEqual({
      state: 'failed',
      last_error: `a different record already sits at ${stranger.uri}, this story's record key; lorebook never overwrites it`,
    });
    expect(announcer.logs.some((line) => line.startsWith(`ANNOUNCE CONFLICT ${slug}`))).toBe(true);
    const [record, ...more] = await bsky.posts().then((posts) => posts.filter((post) => post.uri === stranger.uri));
    expect(more).toHaveLength(0);
    expect(record?.value.embed?.external.uri).toBe('https://elsewhere.test/post');
    expect(await bsky.postsFor(slug)).toHaveLength(0);
  });
});

describe('backoff, rate limits and giving up', () => {
  it('429 with retry-after: the story is not tried again before then, and the sweep stops instead of hammering', async () => {
    const announcer = bsky.announcer();
    const first = await publish('Rate limited first');
    const second = await publish('Rate limited second');
    app.advance(1);
    bsky.proxy().inject(CREATE, { kind: 'rate-limit', retryAfterSeconds: 120 });
    const before = bsky.proxy().seen(CREATE);
    const start = app.ctx().store.now();

    const limited = await sweepAnnouncements(app.ctx(), announcer);
    expect(limited.stopped).toBe('rate limited');
    expect(limited.results).toHaveLength(1);
    const [hit] = limited.results;
    expect(hit?.outcome).toBe('retry_later');
    // Backoff alone would be about a second; retry-after says two minutes.
    expect(Date.parse(hit?.next_attempt_at ?? '') - start).toBeGreaterThanOrEqual(120_000);
    expect(bsky.proxy().seen(CREATE) - before).toBe(1);

    app.advance(60_000);
    const early = await sweepAnnouncements(app.ctx(), announcer);
    expect(early.results.map((result) => result.slug)).not.toContain(hit?.slug);
    app.advance(61_000);
    await sweepAnnouncements(app.ctx(), announcer);
    for (const slug of [first, second]) {
      expect(await bsky.postsFor(slug)).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('posted');
    }
  });

  it('5xx again and again: backoff grows, and after the last attempt the state is failed with the error', async () => {
    const announcer = bsky.announcer({ maxAttempts: 3 });
    const slug = await publish('The PDS keeps failing');
    bsky.proxy().inject(CREATE, { kind: 'status', status: 502 }, 3);
    const waits: { atLeast: number; atMost: number }[] = [];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const before = app.ctx().store.now();
      const result = await announceStory(app.ctx(), announcer, slug);
      const after = app.ctx().store.now();
      if (attempt < 3) {
        expect(result).toMatchObject({ outcome: 'retry_later', attempt });
        const next = Date.parse(result.next_attempt_at ?? '');
        waits.push({ atLeast: next - before, atMost: next - after });
        app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
      } else {
        expect(result).toMatchObject({ outcome: 'failed', attempt: 3 });
      }
    }
    // base·2^(n−1) with jitter on the upper half: [500, 1000] then [1000, 2000] ms.
    expect(waits[0]?.atLeast).toBeGreaterThanOrEqual(500);
    expect(waits[0]?.atMost).toBeLessThanOrEqual(1_000);
    expect(waits[1]?.atLeast).toBeGreaterThanOrEqual(1_000);
    expect(waits[1]?.atMost).toBeLessThanOrEqual(2_000);
    const announce = (await getStory(app.ctx(), alice, { slug })).announce;
    expect(announce).toEqual({ state: 'failed', last_error: expect.stringMatching(/failed with 502/) });
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    // Off the queue: no sweep tries it again.
    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    expect((await sweepAnnouncements(app.ctx(), announcer)).results.map((result) => result.slug)).not.toContain(slug);
  });

  it('a wrong app password: failed with a clear error, one sign-in for the whole process, no retry storm', async () => {
    const announcer = bsky.announcer({}, { appPassword: 'not-the-app-password' });
    const { ctx, idle } = withAnnouncing(app.ctx(), announcer);
    const signIns = bsky.proxy().seen(SIGN_IN);
    const creates = bsky.proxy().seen(CREATE);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Wrong password first') });
    await idle();
    const announce = (await getStory(app.ctx(), alice, { slug })).announce;
    expect(announce.state).toBe('failed');
    expect(announce.last_error).toMatch(/refused the app password .*Check BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD/);
    expect(announcer.logs.some((line) => line.includes('FAILED'))).toBe(true);

    // More stories and sweeps with the same process: not one more sign-in, nothing posted.
    const later = await publish('Wrong password later');
    app.advance(1);
    const report = await sweepAnnouncements(app.ctx(), announcer);
    expect(report.stopped).toBe('the account refused the app password');
    await sweepAnnouncements(app.ctx(), announcer);
    expect(bsky.proxy().seen(SIGN_IN) - signIns).toBe(1);
    expect(bsky.proxy().seen(CREATE) - creates).toBe(0);
    expect(await bsky.postsFor(slug)).toHaveLength(0);
    expect(await bsky.postsFor(later)).toHaveLength(0);
  });

  it('a hung PDS: the attempt ends at the request timeout and is retried later', async () => {
    const announcer = bsky.announcer({}, { requestTimeoutMs: 1_000 });
    // Signed in already (a password check takes a while on a busy machine); the post hangs.
    await announcer.port.did();
    const slug = await publish('The PDS hangs');
    bsky.proxy().inject(CREATE, { kind: 'hang' });
    const started = performance.now();
    const result = await announceStory(app.ctx(), announcer, slug);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ outcome: 'retry_later', error: expect.stringMatching(/did not answer in time/) });
    app.advance(TEST_ANNOUNCE_SETTINGS.backoffCapMs);
    const retried = await announceStory(app.ctx(), announcer, slug);
    expect(retried, JSON.stringify(retried)).toMatchObject({ outcome: 'posted', attempt: 2 });
    expect(await bsky.postsFor(slug)).toHaveLength(1);
  });
});
