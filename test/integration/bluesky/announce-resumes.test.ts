// Announcing resumes without a flood (docs/design.md#announcing-resumes), in process against DynamoDB Local and
// the real test PDS: stories published while announcing was off wait on the queue; the day it is
// switched back on (LOREBOOK_ANNOUNCING, or the credentials set), a sweep posts only those owed
// less than LOREBOOK_ANNOUNCE_MAX_AGE_HOURS and sets the others aside (`skipped`, `too_old`);
// postBacklog posts those once, however many runs meet them. The store clock is moved back to
// publish the old stories, never waited out.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { postBacklog } from '../../../src/outbox/announce/backlog.ts';
import { sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { caller, useAppFixture, WITHOUT_DAILY_LIMITS, WITHOUT_SPAM_WAVE_CHECK } from '../../helpers/app-fixture.ts';
import { useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('bluesky-announce-resumes', { ...WITHOUT_DAILY_LIMITS, ...WITHOUT_SPAM_WAVE_CHECK });
const bsky = useBluesky();
const alice = caller('alice');
const bob = caller('bob');
const HOUR = 3_600_000;
const ALL = Number.MAX_SAFE_INTEGER;
/** 30 publishes and 30 posts to the test PDS, one at a time: about a minute on a loaded machine. */
const THIRTY_STORIES_MS = 240_000;

/** The app context with announcing switched on or off, and an announcer that would post at once. */
function switched(on: boolean): { ctx: AppContext; idle: () => Promise<void>; announcer: ReturnType<typeof bsky.announcer> } {
  const announcer = bsky.announcer();
  const base = app.ctx();
  const { ctx, idle } = withAnnouncing({ ...base, config: { ...base.config, announcing: on } }, announcer);
  return { ctx, idle, announcer };
}

async function publishWhileOff(titles: string[], hoursAgo: number): Promise<string[]> {
  const { ctx, idle } = switched(false);
  app.advance(-hoursAgo * HOUR);
  try {
    const slugs: string[] = [];
    for (const title of titles) slugs.push((await publishStory(ctx, alice, { markdown: storyTitled(title) })).slug);
    await idle();
    return slugs;
  } finally {
    app.advance(hoursAgo * HOUR);
  }
}

const titles = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix} number ${i + 1}`);

async function postCounts(slugs: string[]): Promise<number[]> {
  return Promise.all(slugs.map(async (slug) => (await bsky.postsFor(slug)).length));
}

describe('announcing switched back on after stories queued while it was off', () => {
  it(
    '30 stories queued while off, 3 within the age limit: the PDS gets exactly those 3; the 27 are skipped (too_old) for their author; --backlog posts them once, a second run nothing',
    async () => {
      const old = await publishWhileOff(titles('Queued three days ago', 27), 72);
      const fresh = await publishWhileOff(titles('Queued this morning', 3), 2);
      const before = (await bsky.posts()).length;

      const { ctx, announcer } = switched(true);
      const sweep = await sweepAnnouncements(ctx, announcer, { limit: 100 });
      expect(sweep.outcomes).toEqual({ posted: 3 });
      expect(sweep.set_aside.map((aside) => aside.slug).sort()).toEqual([...old].sort());
      expect((await bsky.posts()).length - before).toBe(3);
      expect(await postCounts(fresh)).toEqual([1, 1, 1]);
      expect(await postCounts(old)).toEqual(old.map(() => 0));

      const owedSince = sweep.set_aside.find((aside) => aside.slug === old[0])?.owed_since as string;
      expect(Date.parse(owedSince)).toBeLessThan(app.ctx().store.now() - 48 * HOUR);
      expect((await getStory(app.ctx(), alice, { slug: old[0] as string })).announce).toEqual({
        state: 'skipped',
        reason: 'too_old',
        owed_since: owedSince,
      });
      // Only its author sees why: to everyone else nothing is owed.
      expect((await getStory(app.ctx(), bob, { slug: old[0] as string })).announce).toEqual({ state: 'off' });

      // The next sweeps post nothing more and set nothing aside again.
      const again = await sweepAnnouncements(ctx, announcer, { limit: 100 });
      expect(again).toMatchObject({ due: 0, outcomes: {}, set_aside: [] });
      expect((await bsky.posts()).length - before).toBe(3);

      const backlog = await postBacklog(ctx, announcer, { limit: ALL, paceMs: 0 });
      expect(backlog).toMatchObject({ taken: 27, outcomes: { posted: 27 } });
      expect(await postCounts(old)).toEqual(old.map(() => 1));
      expect((await getStory(app.ctx(), alice, { slug: old[0] as string })).announce.state).toBe('posted');

      const second = await postBacklog(ctx, announcer, { limit: ALL, paceMs: 0 });
      expect(second).toEqual({ taken: 0, outcomes: {}, results: [] });
      expect((await bsky.posts()).length - before).toBe(30);
    },
    THIRTY_STORIES_MS,
  );

  it('16 backlog runs at once post each set-aside story exactly once; --since leaves older ones set aside', async () => {
    const older = await publishWhileOff(titles('Set aside a week ago', 2), 7 * 24);
    const old = await publishWhileOff(titles('Set aside four days ago', 4), 4 * 24);
    const { ctx, announcer } = switched(true);
    const sweep = await sweepAnnouncements(ctx, announcer, { limit: 100 });
    expect(sweep.set_aside).toHaveLength(6);

    const since = new Date(app.ctx().store.now() - 5 * 24 * HOUR).toISOString();
    const runs = await Promise.all(Array.from({ length: 16 }, () => postBacklog(ctx, announcer, { limit: ALL, paceMs: 0, since })));
    expect(runs.reduce((sum, run) => sum + run.taken, 0)).toBe(4);
    expect(await postCounts(old)).toEqual([1, 1, 1, 1]);
    expect(await postCounts(older)).toEqual([0, 0]);
    expect((await getStory(app.ctx(), alice, { slug: older[0] as string })).announce.state).toBe('skipped');

    const rest = await postBacklog(ctx, announcer, { limit: ALL, paceMs: 0 });
    expect(rest).toMatchObject({ taken: 2, outcomes: { posted: 2 } });
    expect(await postCounts([...older, ...old])).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a story whose announcement was tried before is never set aside: its retry goes out as usual', async () => {
    const [slug] = await publishWhileOff(['Tried once before the switch went off'], 72);
    // An attempt counted (as if announcing had been on and failed once): not a backlog story.
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    await app.ctx().store.client.send(
      new UpdateCommand({
        TableName: app.ctx().store.tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        UpdateExpression: 'SET announce_attempts = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    const { ctx, announcer } = switched(true);
    const sweep = await sweepAnnouncements(ctx, announcer, { limit: 100 });
    expect(sweep.set_aside).toEqual([]);
    expect(await postCounts([slug as string])).toEqual([1]);
  });
});
