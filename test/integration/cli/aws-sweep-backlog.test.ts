// `npm run sweep -- --backlog --aws` (design.md#announcing-resumes) on "the deployed table": this suite's DynamoDB
// Local table, reached through the SDK's own endpoint setting (AWS_ENDPOINT_URL_DYNAMODB), with the
// stack's outputs from a fake CloudFormation on loopback (test/helpers/fake-cloudformation.ts), as
// in aws-commands.test.ts; LOREBOOK_DDB_ENDPOINT points at nothing. Posts go to the real test PDS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { caller, useAppFixture, WITHOUT_DAILY_LIMITS, WITHOUT_SPAM_WAVE_CHECK } from '../../helpers/app-fixture.ts';
import { operatorAwsEnv } from '../../helpers/command-env.ts';
import { type FakeCloudFormation, startFakeCloudFormation } from '../../helpers/fake-cloudformation.ts';
import { BASE_URL, useBluesky } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('aws-sweep-backlog', { ...WITHOUT_DAILY_LIMITS, ...WITHOUT_SPAM_WAVE_CHECK });
const bsky = useBluesky();
const alice = caller('alice');
const STACK = 'LorebookBacklog';
/** Four cold Node starts that import @atproto/api: seconds each, tens of seconds on a busy machine. */
const CLI_TEST_MS = 120_000;
const HOUR = 3_600_000;
let cloudFormation: FakeCloudFormation;

beforeAll(async () => {
  cloudFormation = await startFakeCloudFormation({ [STACK]: { TableName: app.ctx().store.tableName, FunctionUrl: 'https://fn.test/' } });
});
afterAll(async () => cloudFormation?.close());

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function sweepAws(args: string[]): Promise<Output> {
  const env = {
    ...operatorAwsEnv({ name: STACK, cloudFormationUrl: cloudFormation.url, dynamoDbEndpoint: testEndpoint() }),
    LOREBOOK_IMAGE_DIR: app.imageDir(),
    LOREBOOK_BASE_URL: BASE_URL,
    BLUESKY_SERVICE: bsky.proxy().url,
    BLUESKY_IDENTIFIER: bsky.account().handle,
    BLUESKY_APP_PASSWORD: bsky.account().appPassword,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/sweep.ts', '--aws', ...args], {
      cwd: process.cwd(),
      env,
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run sweep -- --backlog --aws', () => {
  it(
    'on the deployed table: a sweep sets the old stories aside and posts the fresh one; --backlog posts the old ones once; a second run posts nothing',
    async () => {
      app.advance(-72 * HOUR);
      const old = [
        (await publishStory(app.ctx(), alice, { markdown: storyTitled('Queued on the stack three days ago 1') })).slug,
        (await publishStory(app.ctx(), alice, { markdown: storyTitled('Queued on the stack three days ago 2') })).slug,
      ];
      app.advance(72 * HOUR);
      const { slug: fresh } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Queued on the stack just now') });

      const swept = await sweepAws(['--json']);
      expect(swept.code, swept.stderr).toBe(0);
      expect(swept.stderr).toContain(`table "${app.ctx().store.tableName}" in eu-west-1 (stack "${STACK}")`);
      const report = JSON.parse(swept.stdout) as { outcomes: Record<string, number>; set_aside: { slug: string }[] };
      expect(report.outcomes).toEqual({ posted: 1 });
      expect(report.set_aside.map((aside) => aside.slug).sort()).toEqual([...old].sort());
      expect(await bsky.postsFor(fresh)).toHaveLength(1);
      for (const slug of old) expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('skipped');

      const listed = await sweepAws(['--backlog', '--list', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const { set_aside: setAside } = JSON.parse(listed.stdout) as { set_aside: { slug: string; owed_since: string }[] };
      expect(setAside.map((story) => story.slug).sort()).toEqual([...old].sort());
      for (const story of setAside) expect(Date.parse(story.owed_since)).toBeLessThan(app.ctx().store.now() - 48 * HOUR);
      for (const slug of old) expect(await bsky.postsFor(slug)).toHaveLength(0);

      const backlog = await sweepAws(['--backlog', '--pace', '200ms']);
      expect(backlog.code, backlog.stderr).toBe(0);
      expect(backlog.stdout).toContain('sweep: backlog: 2 taken: 2 posted');
      for (const slug of old) expect(await bsky.postsFor(slug)).toHaveLength(1);

      const again = await sweepAws(['--backlog', '--pace', '200ms']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('sweep: backlog: 0 taken');
      for (const slug of [...old, fresh]) expect(await bsky.postsFor(slug)).toHaveLength(1);
      expect(cloudFormation.asked()).toEqual([STACK, STACK, STACK, STACK]);
    },
    CLI_TEST_MS,
  );
});
