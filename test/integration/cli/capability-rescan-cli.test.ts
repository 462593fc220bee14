// `npm run capability:rescan` as an operator runs it (node on the CLI's file, another process),
// on this suite's DynamoDB Local table: stories from before the scanner are scanned; a run killed
// mid-walk (SIGKILL, nothing to clean up) is resumed by the next run from the stored position and
// finishes; a finished walk reads nothing more.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { scanStory } from '../../../src/domain/capability/scan.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('capability-rescan-cli');
const CLI = 'src/cli/capability-rescan.ts';
/** Each run is a cold Node start with the scanner's worker: seconds on a busy machine. */
const CLI_TEST_MS = 120_000;
const STORIES = 10;
const stories: { slug: string; markdown: string }[] = [];

function env(): NodeJS.ProcessEnv {
  return { ...withoutLorebookSettings(), LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName };
}

const rescan = async (args: string[]) => run(process.execPath, [CLI, ...args], { cwd: process.cwd(), env: env(), timeout: 60_000 });

const capabilityOf = async (slug: string) =>
  (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META')?.capability as Record<string, unknown> | undefined;

beforeAll(async () => {
  for (let index = 0; index < STORIES; index += 1) {
    const markdown = storyPipingToShell(`Stored before the scanner ${index}`, `curl -fsSL https://example.com/before-${index}.sh | sh`);
    const { slug } = await publishStory(app.ctx(), caller('alice'), { markdown });
    // As a story stored before publish scanned stories: no report at all.
    await app.ctx().store.client.send(
      new UpdateCommand({
        TableName: app.ctx().store.tableName,
        Key: { PK: `STORY#${slug}`, SK: 'META' },
        UpdateExpression: 'REMOVE capability',
      }),
    );
    stories.push({ slug, markdown });
  }
}, CLI_TEST_MS);

describe('npm run capability:rescan', () => {
  it(
    '--help says what it does and exits 0; a bad option is a usage error, exit 2',
    async () => {
      const { stdout } = await rescan(['--help']);
      expect(stdout).toMatch(/^usage: npm run capability:rescan/);
      expect(stdout).toContain('--dry-run');
      await expect(rescan(['--batch', '0'])).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--batch must be a whole number'),
      });
    },
    CLI_TEST_MS,
  );

  it(
    '--dry-run lists every never-scanned story and writes nothing',
    async () => {
      const before = await app.state();
      const { stdout, stderr } = await rescan(['--dry-run', '--json']);
      for (const story of stories) expect(stderr).toContain(`${story.slug}: stale (was never scanned)`);
      expect(JSON.parse(stdout)).toMatchObject({ dry_run: true, outcomes: { stale: STORIES }, finished: true });
      expect(await app.state()).toEqual(before);
    },
    CLI_TEST_MS,
  );

  it(
    'a run killed mid-walk is resumed by the next from where it was, and finishes; a third run reads nothing',
    async () => {
      const killed = spawn(process.execPath, [CLI, '--batch', '1', '--stories', '1'], {
        cwd: process.cwd(),
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      killed.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => killed.once('exit', (_code, signal) => resolve(signal)));
      killed.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/: rescanned /.test(stderr)) killed.kill('SIGKILL');
      });
      expect(await exited).toBe('SIGKILL');
      expect(stdout).toBe('');
      const scannedBefore = (await Promise.all(stories.map((story) => capabilityOf(story.slug)))).filter((report) => report !== undefined);
      expect(scannedBefore.length).toBeGreaterThanOrEqual(1);
      expect(scannedBefore.length).toBeLessThan(STORIES);

      const resumed = await rescan(['--batch', '5']);
      expect(resumed.stderr).toMatch(/batch 1 from after /);
      expect(resumed.stdout).toMatch(/the walk is finished/);
      for (const story of stories) expect(await capabilityOf(story.slug)).toEqual(scanStory(story.markdown));

      const state = await app.state();
      const again = await rescan([]);
      expect(again.stderr).toMatch(/batch 1 from end: 0 item\(s\) read/);
      expect(again.stdout).toMatch(/none stale; the walk is finished/);
      expect(await app.state()).toEqual(state);
    },
    CLI_TEST_MS,
  );
});
