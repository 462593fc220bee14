// `npm run sweep -- --backlog` as an operator runs it (design.md#announcing-resumes), against the run's DynamoDB Local
// and the real test PDS: stories published while announcing was off, four of them three days
// ago; the first sweep with credentials posts the fresh one and sets the old ones aside; the
// backlog run posts them, paced (a small --pace here), with progress on stderr; a second run
// posts nothing. The old stories are published with the store clock moved back; the CLI keeps
// the real clock.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { caller, useAppFixture, WITHOUT_DAILY_LIMITS, WITHOUT_SPAM_WAVE_CHECK } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('bluesky-sweep-backlog-cli', { ...WITHOUT_DAILY_LIMITS, ...WITHOUT_SPAM_WAVE_CHECK });
const bsky = useBluesky();
const alice = caller('alice');
/** Three cold Node starts that import @atproto/api, and four posts 300 ms apart. */
const CLI_TEST_MS = 120_000;
const HOUR = 3_600_000;

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function sweep(args: string[]): Promise<Output> {
  const env = withoutLorebookSettings();
  Object.assign(env, {
    LOREBOOK_DDB_ENDPOINT: testEndpoint(),
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_BASE_URL: BASE_URL,
    BLUESKY_SERVICE: bsky.proxy().url,
    BLUESKY_IDENTIFIER: bsky.account().handle,
    BLUESKY_APP_PASSWORD: bsky.account().appPassword,
  });
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/sweep.ts', ...args], { cwd: process.cwd(), env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function publishHoursAgo(title: string, hoursAgo: number): Promise<string> {
  // No announcer in this context: announcing was off (no credentials yet); the story waits on the queue.
  app.advance(-hoursAgo * HOUR);
  try {
    return (await publishStory(app.ctx(), alice, { markdown: storyTitled(title) })).slug;
  } finally {
    app.advance(hoursAgo * HOUR);
  }
}

describe('npm run sweep -- --backlog', () => {
  it(
    'the first sweep posts only the fresh story and names the old ones set aside; --backlog posts them once, paced, with progress on stderr; a second --backlog posts nothing',
    async () => {
      const old: string[] = [];
      for (let i = 1; i <= 4; i += 1) old.push(await publishHoursAgo(`Waited three days for credentials ${i}`, 72));
      const fresh = await publishHoursAgo('Published an hour before the credentials', 1);

      const first = await sweep([]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(
        /^sweep: 1 due: 1 posted; set aside 4 too old \(owed since .+; npm run sweep -- --backlog posts them\)$/m,
      );
      for (const slug of old) expect(first.stderr).toContain(`sweep: set aside ${slug}: too old, owed since `);
      expect(await bsky.postsFor(fresh)).toHaveLength(1);
      for (const slug of old) {
        expect(await bsky.postsFor(slug)).toEqual([]);
        expect((await getStory(app.ctx(), alice, { slug })).announce).toMatchObject({ state: 'skipped', reason: 'too_old' });
      }

      const backlog = await sweep(['--backlog', '--pace', '300ms', '--json']);
      expect(backlog.code, backlog.stderr).toBe(0);
      expect(backlog.stderr).toContain('one every 300 ms');
      for (const [index, slug] of old.entries()) expect(backlog.stderr).toContain(`sweep: backlog [${index + 1}] ${slug}: posted at://`);
      expect(JSON.parse(backlog.stdout)).toMatchObject({ taken: 4, outcomes: { posted: 4 } });
      for (const slug of old) {
        const posts = await bsky.postsFor(slug);
        expect(posts).toHaveLength(1);
        expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
      }

      const again = await sweep(['--backlog', '--pace', '300ms']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('sweep: backlog: 0 taken');
      for (const slug of [...old, fresh]) expect(await bsky.postsFor(slug)).toHaveLength(1);
    },
    CLI_TEST_MS,
  );

  it(
    'usage errors: --pace without --backlog, --backlog with --retry, a --pace that is no duration; --help names --backlog',
    async () => {
      expect((await sweep(['--pace', '30s'])).code).toBe(2);
      expect((await sweep(['--backlog', '--retry', 'x'])).code).toBe(2);
      const bad = await sweep(['--backlog', '--pace', 'soon']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--pace must be a duration');
      const help = await sweep(['--help']);
      expect(help.stdout).toContain('--backlog');
      expect(help.stdout).toContain('LOREBOOK_ANNOUNCE_MAX_AGE_HOURS');
    },
    CLI_TEST_MS,
  );
});
