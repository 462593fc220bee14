// The announcer's decisions, with a scripted port instead of a PDS (the real PDS runs in
// test/integration/bluesky/): what it does for a story that is not owed, not due, claimed by a
// live worker, out of attempts after a takeover, or held by a worker that paused too long.
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import type { Announcer } from '../../../src/outbox/announce/announcer.ts';
import { AnnounceFailure, type AnnouncePort, type ExistingPost, type StoryPost } from '../../../src/outbox/announce/port.ts';
import type { AnnounceSettings } from '../../../src/outbox/announce/settings.ts';
import { announceStory } from '../../../src/outbox/announce/story.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { claimAnnounce } from '../../../src/store/story/announce/items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('announce-story');
const alice = caller('alice');
const settings: AnnounceSettings = {
  baseUrl: 'https://lorebook.test',
  maxAttempts: 2,
  backoffBaseMs: 1_000,
  backoffCapMs: 10_000,
  staleClaimMs: 60_000,
};
const iso = (ms: number): string => new Date(ms).toISOString();

/** A port that records its calls and answers from a script. */
function scripted(
  options: { create?: (post: StoryPost) => Promise<{ uri: string }>; existing?: ExistingPost } = {},
): Announcer & { calls: string[] } {
  const calls: string[] = [];
  const port: AnnouncePort = {
    describe: 'scripted',
    find: async (post) => {
      calls.push(`find ${post.slug}`);
      return options.existing;
    },
    create: async (post) => {
      calls.push(`create ${post.slug}`);
      return options.create === undefined ? { uri: `at://did:plc:test/app.bsky.feed.post/${post.slug}` } : options.create(post);
    },
    remove: async () => {},
  };
  return { port, settings, log: () => {}, calls };
}

const publish = async (title: string): Promise<string> => (await publishStory(app.ctx(), alice, { markdown: storyTitled(title) })).slug;

describe('what an attempt does not do', () => {
  it('a private, hidden or unknown story is not owed: no claim, no call', async () => {
    const announcer = scripted();
    const privateSlug = (await publishStory(app.ctx(), alice, { markdown: storyTitled('Kept private', { visibility: 'private' }) })).slug;
    const hidden = await publish('Hidden before announcing');
    await setVisibility(app.ctx(), alice, { slug: hidden, hidden: true });
    for (const slug of [privateSlug, hidden, '2026-10-14-never-published']) {
      expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'not_owed' });
    }
    expect(announcer.calls).toEqual([]);
  });

  it('a posted story is not owed again: the second attempt answers its uri and calls nothing', async () => {
    const announcer = scripted();
    const slug = await publish('Posted once only');
    const first = await announceStory(app.ctx(), announcer, slug);
    expect(first).toMatchObject({ outcome: 'posted', attempt: 1 });
    expect(await announceStory(app.ctx(), announcer, slug)).toEqual({ slug, outcome: 'not_owed', uri: first.uri });
    expect(announcer.calls).toEqual([`create ${slug}`]);
  });

  it('a story waiting for its retry time is not tried before it', async () => {
    const failing = scripted({ create: async () => Promise.reject(new AnnounceFailure('server', 'PDS 502')) });
    const slug = await publish('Waiting for the retry time');
    const failed = await announceStory(app.ctx(), failing, slug);
    expect(failed).toMatchObject({ outcome: 'retry_later', error: 'PDS 502' });
    expect(await announceStory(app.ctx(), failing, slug)).toEqual({ slug, outcome: 'not_due', next_attempt_at: failed.next_attempt_at });
    expect(failing.calls).toEqual([`create ${slug}`]);
  });

  it('a live claim of another worker is left alone until it is stale', async () => {
    const announcer = scripted();
    const slug = await publish('Someone is posting it');
    const now = app.ctx().store.now();
    await writeAtomically(app.ctx().store, [
      claimAnnounce({ slug, claimId: 'other', claimedAt: iso(now), staleAt: iso(now + settings.staleClaimMs) }),
    ]);
    app.advance(settings.staleClaimMs - 1_000);
    expect(await announceStory(app.ctx(), announcer, slug)).toEqual({ slug, outcome: 'held_elsewhere' });
    expect(announcer.calls).toEqual([]);
  });
});

describe('attempts and takeovers', () => {
  it('a takeover of a claim that used the last attempt looks the key up first, then gives up: failed, nothing posted', async () => {
    const failing = scripted({ create: async () => Promise.reject(new AnnounceFailure('timeout', 'no answer in time')) });
    const slug = await publish('Out of attempts after a crash');
    expect(await announceStory(app.ctx(), failing, slug)).toMatchObject({ outcome: 'retry_later', attempt: 1 });
    app.advance(settings.backoffCapMs);
    // The second (last) attempt's worker dies after claiming.
    const now = app.ctx().store.now();
    await writeAtomically(app.ctx().store, [
      claimAnnounce({ slug, claimId: 'dead', claimedAt: iso(now), staleAt: iso(now + settings.staleClaimMs), takeOverBefore: undefined }),
    ]);
    app.advance(settings.staleClaimMs + 1);
    const announcer = scripted();
    expect(await announceStory(app.ctx(), announcer, slug)).toMatchObject({ outcome: 'failed', attempt: 3 });
    expect(announcer.calls).toEqual([`find ${slug}`]);
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({
      state: 'failed',
      last_error: 'gave up after 2 attempts: no answer in time',
    });
  });

  it('a worker that paused for half its claim does not post: it gives the claim back for a later attempt', async () => {
    const slug = await publish('Paused too long before posting');
    let paused = false;
    const announcer = scripted();
    const find = announcer.port.find;
    // The look-up of a second attempt is where this worker "pauses".
    announcer.port = {
      ...announcer.port,
      find: async (post) => {
        app.advance(settings.staleClaimMs / 2 + 1);
        paused = true;
        return find(post);
      },
    };
    const failing = scripted({ create: async () => Promise.reject(new AnnounceFailure('server', 'PDS 503')) });
    expect(await announceStory(app.ctx(), failing, slug)).toMatchObject({ outcome: 'retry_later' });
    app.advance(settings.backoffCapMs);
    const result = await announceStory(app.ctx(), announcer, slug);
    expect(paused).toBe(true);
    expect(result).toMatchObject({ outcome: 'retry_later', error: 'the attempt ran out of its claim time before posting' });
    expect(announcer.calls).toEqual([`find ${slug}`]);
  });

  it('an unexpected error (not an AnnounceFailure) propagates and leaves the claim for the sweeper to take over', async () => {
    const slug = await publish('A bug in the port');
    const broken = scripted({ create: async () => Promise.reject(new TypeError('bug')) });
    await expect(announceStory(app.ctx(), broken, slug)).rejects.toThrow('bug');
    expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'pending' });
    app.advance(settings.staleClaimMs + 1);
    expect(await announceStory(app.ctx(), scripted(), slug)).toMatchObject({ outcome: 'posted', attempt: 2 });
  });
});
