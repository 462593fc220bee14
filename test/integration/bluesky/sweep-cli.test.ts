// `npm run sweep` as an operator runs it, against the run's DynamoDB Local and the real PDS:
// the PDS is down when a story is published, the publish still succeeds and the story waits on
// the queue with the error; once the PDS is back, one sweep posts it exactly once. Also: the
// publish answer never waits for Bluesky. Real clock here (the CLI is another process).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { scheduleAnnounceSweeps } from '../../../src/outbox/announce/sweeper.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { claimAnnounce } from '../../../src/store/story/announce/items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('bluesky-sweep-cli');
const bsky = useBluesky();
const alice = caller('alice');
const CREATE = 'com.atproto.repo.createRecord';
/** Each `npm run sweep` is a cold Node start that imports @atproto/api: seconds on a busy machine. */
const CLI_TEST_MS = 120_000;
const DAY_MS = 24 * 60 * 60_000;

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function sweep(args: string[], extra: Record<string, string> = {}): Promise<Output> {
  const env = withoutLorebookSettings();
  Object.assign(env, {
    LOREBOOK_DDB_ENDPOINT: testEndpoint(),
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_BASE_URL: BASE_URL,
    BLUESKY_SERVICE: bsky.proxy().url,
    BLUESKY_IDENTIFIER: bsky.account().handle,
    BLUESKY_APP_PASSWORD: bsky.account().appPassword,
    ...extra,
  });
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'sweep', '--', ...args], { cwd: process.cwd(), env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const waitUntil = async (ms: number): Promise<void> => {
  const left = ms - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
};

describe('the PDS is down at publish', () => {
  it(
    'publish succeeds and the announcement waits with its error; once the PDS is back, npm run sweep posts exactly once',
    async () => {
      await bsky.pds().stop();
      await bsky.proxy().down();
      const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer({ backoffBaseMs: 200 }));
      const published = await publishStory(ctx, alice, { markdown: storyTitled('Published while the PDS was down') });
      expect(published.revision).toBe(1);
      await idle();
      const waiting = (await getStory(app.ctx(), alice, { slug: published.slug })).announce;
      expect(waiting).toEqual({ state: 'pending', last_error: expect.stringMatching(/could not be reached.*ECONNREFUSED/) });

      await bsky.pds().start();
      await bsky.proxy().up();
      const meta = (await app.state()).find((item) => item.PK === `STORY#${published.slug}` && item.SK === 'META');
      await waitUntil(Date.parse(String(meta?.next_attempt_at)) + 10);

      const swept = await sweep(['--json']);
      expect(swept.code, swept.stderr).toBe(0);
      expect(swept.stderr).toContain(`sweep: [1/1] ${published.slug}: posted at://`);
      const report = JSON.parse(swept.stdout) as { due: number; outcomes: Record<string, number> };
      expect(report).toMatchObject({ due: 1, outcomes: { posted: 1 } });
      const posts = await bsky.postsFor(published.slug);
      expect(posts).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug: published.slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });

      const again = await sweep([]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('sweep: 0 due');
      expect(await bsky.postsFor(published.slug)).toHaveLength(1);
    },
    CLI_TEST_MS,
  );
});

describe('an operator retries a failed announcement by its slug', () => {
  it(
    'after a wrong app password failed it, npm run sweep -- --retry <slug> puts it back and posts it once',
    async () => {
      const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer({}, { appPassword: 'wrong-password' }));
      const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Failed then retried by hand') });
      await idle();
      expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('failed');

      const swept = await sweep(['--retry', slug, '--json']);
      expect(swept.code, swept.stderr).toBe(0);
      expect(swept.stderr).toContain(`sweep: retry ${slug}: requeued`);
      expect(JSON.parse(swept.stdout)).toMatchObject({ outcomes: { posted: 1 } });
      const posts = await bsky.postsFor(slug);
      expect(posts).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });

      // A story that is posted is not failed: nothing is requeued, nothing posted again.
      const again = await sweep(['--retry', slug]);
      expect(again.stderr).toContain(`sweep: retry ${slug}: not_failed (announce is posted)`);
      expect(await bsky.postsFor(slug)).toHaveLength(1);
    },
    CLI_TEST_MS,
  );
});

describe('the publish answer never waits for Bluesky', () => {
  it('publish answers while its announcement is still in flight', async () => {
    const held = bsky.proxy().hold(CREATE);
    const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer());
    const published = await publishStory(ctx, alice, { markdown: storyTitled('Answered before the post') });
    await held.arrived;
    expect((await getStory(app.ctx(), alice, { slug: published.slug })).announce).toEqual({ state: 'pending' });
    held.forward();
    await idle();
    expect(await bsky.postsFor(published.slug)).toHaveLength(1);
  });
});

describe('sweeps on a schedule (what npm start runs)', () => {
  it('a story whose publish-time attempt never happened is posted by the next scheduled sweep, once; stop waits for the run', async () => {
    // Published without announcing: as if the process died right after the commit.
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Posted by the schedule') });
    const announcer = bsky.announcer();
    const schedule = scheduleAnnounceSweeps(app.ctx(), announcer, 50);
    try {
      for (let poll = 0; poll < 100 && (await getStory(app.ctx(), alice, { slug })).announce.state !== 'posted'; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await schedule.stop();
    }
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    expect(announcer.logs.some((line) => line.startsWith('announce sweep: '))).toBe(true);
  });
});

describe('npm run sweep as a command', () => {
  it(
    '--help says what it does and which settings it reads',
    async () => {
      const help = await sweep(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('usage: npm run sweep');
      expect(help.stdout).toContain('BLUESKY_APP_PASSWORD');
    },
    CLI_TEST_MS,
  );

  it(
    'with announcing off it says so and posts nothing (exit 1); a bad --limit is a usage error (exit 2)',
    async () => {
      const off = await sweep([], { BLUESKY_SERVICE: '', BLUESKY_IDENTIFIER: '', BLUESKY_APP_PASSWORD: '' });
      expect(off.code).toBe(1);
      expect(off.stderr).toContain('Bluesky announcing is off');
      const bad = await sweep(['--limit', '0']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--limit must be a whole number from 1 to 100');
      const notASlug = await sweep(['--retry', 'not a slug']);
      expect(notASlug.code).toBe(2);
    },
    CLI_TEST_MS,
  );
});

describe('npm run sweep says what it skipped and why, and judges due-ness at --now', () => {
  const iso = (ms: number): string => new Date(ms).toISOString();
  interface Skip {
    slug: string;
    reason: string;
    next_attempt_at?: string;
    claimed_since?: string;
    stale_at?: string;
    last_error?: string;
  }

  it(
    'a retry waiting out its backoff: "1 waiting: next attempt in N s"; with --now past its time it is posted, once',
    async () => {
      // A backoff of 12 to 24 hours, so the retry is still waiting when the commands run however
      // slow the machine is. Both the base and the cap: the suite's cap (60 s) used to shrink a
      // 240 s base to 30-60 s, which two cold CLI starts on a loaded machine could outlast.
      const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer({ backoffBaseMs: DAY_MS, backoffCapMs: DAY_MS }));
      bsky.proxy().inject(CREATE, { kind: 'status', status: 503 });
      const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Waiting out its backoff') });
      await idle();
      const meta = (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
      const next = String(meta?.next_attempt_at);

      const text = await sweep([]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^sweep: 0 due; skipped 1 waiting: next attempt in \d+ s$/m);
      expect(text.stderr).toContain(`sweep: skipped ${slug}: waiting: next attempt in`);
      expect(text.stderr).toContain(`(at ${next}); last error: post:`);
      const json = await sweep(['--json']);
      const report = JSON.parse(json.stdout) as { due: number; skipped: Skip[] };
      expect(report.due).toBe(0);
      expect(report.skipped).toEqual([
        { slug, reason: 'waiting', next_attempt_at: next, last_error: expect.stringMatching(/failed with 503/) },
      ]);
      expect(await bsky.postsFor(slug)).toHaveLength(0);

      const later = await sweep(['--now', iso(Date.parse(next) + 1_000), '--json']);
      expect(later.code, later.stderr).toBe(0);
      expect(JSON.parse(later.stdout)).toMatchObject({ due: 1, outcomes: { posted: 1 }, skipped: [] });
      const posts = await bsky.postsFor(slug);
      expect(posts).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
    },
    CLI_TEST_MS,
  );

  it(
    'a live claim: "1 claimed by a running worker since <time>"; with --now past its stale time it is taken over and posted once',
    async () => {
      const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Claimed by a running worker') });
      const claimedAt = iso(Date.now());
      // What the command's own settings would write: stale after 5 minutes.
      const staleAt = iso(Date.parse(claimedAt) + 5 * 60_000);
      await writeAtomically(app.ctx().store, [claimAnnounce({ slug, claimId: 'a-running-worker', claimedAt, staleAt })]);

      const text = await sweep([]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(`sweep: 0 due; skipped 1 claimed by a running worker since ${claimedAt}`);
      expect(text.stderr).toContain(
        `sweep: skipped ${slug}: claimed by a running worker since ${claimedAt} (taken over from ${staleAt} if it never finishes)`,
      );
      const json = JSON.parse((await sweep(['--json'])).stdout) as { due: number; skipped: Skip[] };
      expect(json).toMatchObject({ due: 0, skipped: [{ slug, reason: 'claimed', claimed_since: claimedAt, stale_at: staleAt }] });

      const taken = await sweep(['--now', iso(Date.parse(staleAt) + 1_000), '--json']);
      expect(taken.code, taken.stderr).toBe(0);
      expect(JSON.parse(taken.stdout)).toMatchObject({
        due: 1,
        outcomes: { posted: 1 },
        results: [{ slug, outcome: 'posted', attempt: 2 }],
      });
      const posts = await bsky.postsFor(slug);
      expect(posts).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
    },
    CLI_TEST_MS,
  );

  it(
    '--now that is not an ISO time with a zone is a usage error (exit 2), and --help names it',
    async () => {
      const bad = await sweep(['--now', 'tomorrow']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--now must be an ISO 8601 time with a time zone');
      const local = await sweep(['--now', '2026-12-01T10:00:00']);
      expect(local.code).toBe(2);
      const help = await sweep(['--help']);
      expect(help.stdout).toContain('--now <iso>');
    },
    CLI_TEST_MS,
  );
});

describe('the sweep timer after a rate limit', () => {
  it('a run stopped by a 429 is followed by none before the interval, although another story is due', async () => {
    const announcer = bsky.announcer();
    await announcer.port.did();
    // Published without announcing: both are due at once.
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Due when the limit hit, first') });
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Due when the limit hit, second') });
    bsky.proxy().inject(CREATE, { kind: 'rate-limit', retryAfterSeconds: 1 });
    const before = bsky.proxy().seen(CREATE);
    const schedule = scheduleAnnounceSweeps(app.ctx(), announcer, 60_000);
    try {
      for (let poll = 0; poll < 100 && bsky.proxy().seen(CREATE) === before; poll += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // Long enough for several runs, were the timer to follow the queue's head (250 ms apart).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(bsky.proxy().seen(CREATE) - before).toBe(1);
      expect(announcer.logs.some((line) => line.includes('(stopped: rate limited)'))).toBe(true);
    } finally {
      await schedule.stop();
    }
  });
});
