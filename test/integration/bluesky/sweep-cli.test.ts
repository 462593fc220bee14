// `npm run sweep` as an operator runs it, against the run's DynamoDB Local and the real PDS:
// the PDS is down when a story is published, the publish still succeeds and the story waits on
// the queue with the error; once the PDS is back, one sweep posts it exactly once. Also: the
// publish answer never waits for Bluesky. Real clock here (the CLI is another process).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { scheduleAnnounceSweeps } from '../../../src/outbox/announce-sweeper.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
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

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function sweep(args: string[], extra: Record<string, string> = {}): Promise<Output> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOREBOOK_') && !name.startsWith('BLUESKY_')) env[name] = value;
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
  it('publish succeeds and the announcement waits with its error; once the PDS is back, npm run sweep posts exactly once', async () => {
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
  }, CLI_TEST_MS);
});

describe('an operator retries a failed announcement by its slug', () => {
  it('after a wrong app password failed it, npm run sweep -- --retry <slug> puts it back and posts it once', async () => {
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
  }, CLI_TEST_MS);
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
  it('--help says what it does and which settings it reads', async () => {
    const help = await sweep(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run sweep');
    expect(help.stdout).toContain('BLUESKY_APP_PASSWORD');
  }, CLI_TEST_MS);

  it('with announcing off it says so and posts nothing (exit 1); a bad --limit is a usage error (exit 2)', async () => {
    const off = await sweep([], { BLUESKY_SERVICE: '', BLUESKY_IDENTIFIER: '', BLUESKY_APP_PASSWORD: '' });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('Bluesky announcing is off');
    const bad = await sweep(['--limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 100');
    const notASlug = await sweep(['--retry', 'not a slug']);
    expect(notASlug.code).toBe(2);
  }, CLI_TEST_MS);
});
