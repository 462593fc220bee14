// `npm run moderate` as an operator runs it (node on the CLI's file, another process): locally on
// this suite's DynamoDB Local table, and with `--aws` on the same table standing in for the
// deployed one (as in aws-commands.test.ts: the SDK's endpoint setting for DynamoDB, a FAKE
// CloudFormation on loopback answering DescribeStacks, since CloudFormation cannot run here).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appealModeration } from '../../../src/app/appeal-moderation.ts';
import { quarantineStory } from '../../../src/app/moderation/quarantine-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { operatorAwsEnv, withoutLorebookSettings } from '../../helpers/command-env.ts';
import { type FakeCloudFormation, startFakeCloudFormation } from '../../helpers/fake-cloudformation.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('moderate-cli');
const alice = caller('alice');
const reader = caller('bob');
const CLI = 'src/cli/moderate.ts';
/** Each run is a cold Node start: seconds on a busy machine. */
const CLI_TEST_MS = 180_000;
const STACK = 'LorebookModeration';
/** Nothing listens there: an `--aws` run that used the local endpoint would fail. */
let cloudFormation: FakeCloudFormation;

beforeAll(async () => {
  cloudFormation = await startFakeCloudFormation({ [STACK]: { TableName: app.ctx().store.tableName } });
});
afterAll(async () => cloudFormation?.close());

const localEnv = (): NodeJS.ProcessEnv => ({
  ...withoutLorebookSettings(),
  LOREBOOK_DDB_ENDPOINT: testEndpoint(),
  LOREBOOK_TABLE: app.ctx().store.tableName,
});

function awsEnv(): NodeJS.ProcessEnv {
  return operatorAwsEnv({ name: STACK, cloudFormationUrl: cloudFormation.url, dynamoDbEndpoint: testEndpoint() });
}

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function moderate(args: string[], env: NodeJS.ProcessEnv = localEnv()): Promise<Output> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: process.cwd(), env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const auditCount = async (slug: string) => (await app.state()).filter((item) => item.PK === 'MODLOG' && item.target === slug).length;

describe('npm run moderate', () => {
  it(
    'quarantine, run twice, holds once; restore with --aws lifts it; --op-id repeats a run without acting again; queue and show list the appeal and the audit',
    async () => {
      const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Moderated from the command line') });

      const held = await moderate(['quarantine', slug, '--reason', 'Steps delete the home directory.', '--json']);
      expect(held.code, held.stderr).toBe(0);
      const heldAnswer = JSON.parse(held.stdout);
      expect(heldAnswer).toMatchObject({ slug, action: 'quarantine', changed: true, state: 'quarantined' });
      expect(held.stderr).toContain(`--op-id ${heldAnswer.op_id}`);
      const again = await moderate(['quarantine', slug, '--reason', 'Steps delete the home directory.']);
      expect(again.stdout).toContain(`already quarantined since ${heldAnswer.since}; nothing changed`);
      expect(await auditCount(slug)).toBe(1);

      await appealModeration(app.ctx(), alice, { slug, note: 'The delete is inside a temp dir.' });
      const queue = await moderate(['queue']);
      expect(queue.stdout).toMatch(new RegExp(`appeal\\s+${slug} .*appeal: The delete is inside a temp dir\\.`));
      const awsQueue = await moderate(['queue', '--aws', '--json'], awsEnv());
      expect(awsQueue.code, awsQueue.stderr).toBe(0);
      expect(JSON.parse(awsQueue.stdout)).toContainEqual(expect.objectContaining({ kind: 'appeal', slug }));

      const restored = await moderate(
        ['restore', slug, '--reason', 'Appeal upheld.', '--op-id', 'op-cli-restore', '--aws', '--json'],
        awsEnv(),
      );
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stderr).toContain(`table "${app.ctx().store.tableName}" in eu-west-1 (stack "${STACK}")`);
      expect(JSON.parse(restored.stdout)).toMatchObject({ slug, action: 'restore', changed: true, op_id: 'op-cli-restore' });
      expect((await getStory(app.ctx(), reader, { slug })).slug).toBe(slug);

      // Held again in between: repeating the restore's op id answers the first run and restores nothing.
      app.advance(1);
      await quarantineStory(app.ctx(), { slug, reason: 'Back with the same steps.', actor: 'operator:other', op_id: 'op-cli-rehold' });
      const before = await app.state();
      const repeated = await moderate(['restore', slug, '--reason', 'Appeal upheld.', '--op-id', 'op-cli-restore']);
      expect(repeated.stdout).toContain('op op-cli-restore already ran (restored); nothing changed now');
      expect(await app.state()).toEqual(before);
      expect(await auditCount(slug)).toBe(3);
      expect((await getStory(app.ctx(), alice, { slug })).moderation?.state).toBe('quarantined');

      const shown = JSON.parse((await moderate(['show', slug, '--json'])).stdout);
      expect(shown).toMatchObject({ slug, moderation: { state: 'quarantined', reason: 'Back with the same steps.' } });
      expect(shown.audit.map((entry: { action: string }) => entry.action)).toEqual(['quarantine', 'restore', 'quarantine']);
    },
    CLI_TEST_MS,
  );

  it(
    '--help explains every command and --aws; a missing --reason or an unknown command is a usage error (exit 2); a story never held exits 1',
    async () => {
      const help = await moderate(['--help']);
      for (const text of [
        'moderate -- queue',
        'show <slug>',
        'quarantine <slug> --reason',
        'restore <slug> --reason',
        'With --aws: AWS_REGION',
      ])
        expect(help.stdout).toContain(text);
      expect((await moderate(['quarantine', '2026-01-01-any-story'])).code).toBe(2);
      expect((await moderate(['ban', 'someone'])).code).toBe(2);
      const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Never held by anyone') });
      const notHeld = await moderate(['restore', slug, '--reason', 'Nothing to lift.']);
      expect(notHeld.code).toBe(1);
      expect(notHeld.stderr).toContain('is not held for review');
    },
    CLI_TEST_MS,
  );
  it(
    "ban holds the account's story and a second ban changes nothing; unban with --aws lists it again",
    async () => {
      const spammer = { account: 'did:plc:moderatecliban', handle: 'moderatecliban.test' };
      await recordBlueskySignIn(app.ctx(), { did: spammer.account, handle: spammer.handle });
      const { slug } = await publishStory(app.ctx(), spammer, { markdown: storyTitled('Written before its author was banned') });
      const hidden = async () => (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META')?.hidden;
      // Nothing of the account's is in flight here, so its first step need not wait out the grace.
      const noGrace = { LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS: '0' };

      const banned = await moderate(['ban', spammer.handle, '--reason', 'A spam wave from this account.', '--json'], {
        ...localEnv(),
        ...noGrace,
      });
      expect(banned.code, banned.stderr).toBe(0);
      expect(JSON.parse(banned.stdout)).toMatchObject({ account: spammer.account, status: 'banned' });
      expect(await hidden()).toBe(true);

      const again = await moderate(['ban', spammer.account, '--reason', 'A spam wave from this account.', '--json'], {
        ...localEnv(),
        ...noGrace,
      });
      expect(JSON.parse(again.stdout)).toMatchObject({ status: 'already_banned' });
      expect((await app.state()).filter((item) => item.PK === 'MODLOG' && item.action === 'ban')).toHaveLength(1);

      const unbanned = await moderate(['unban', spammer.account, '--reason', 'Cleared on appeal.', '--aws'], { ...awsEnv(), ...noGrace });
      expect(unbanned.code, unbanned.stderr).toBe(0);
      expect(unbanned.stdout).toContain('unbanned');
      expect(await hidden()).toBe(false);
    },
    CLI_TEST_MS,
  );

  it(
    'ban without a reason is a usage error (exit 2) and writes nothing',
    async () => {
      const before = (await app.state()).length;
      const refused = await moderate(['ban', 'someone.test']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('ban needs --reason <text>');
      expect((await app.state()).length).toBe(before);
    },
    CLI_TEST_MS,
  );
});
