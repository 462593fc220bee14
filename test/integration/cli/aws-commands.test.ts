// Every operator command with `--aws`, as an operator runs it on the deployed stack (node on the
// CLI's file, another process). What stands in for AWS: this suite's DynamoDB Local table is "the
// deployed table", reached through the SDK's own endpoint setting (AWS_ENDPOINT_URL_DYNAMODB) with
// credentials from the default chain (env), and the stack's outputs come from a FAKE CloudFormation
// on loopback (test/helpers/fake-cloudformation.ts; CloudFormation cannot run here) answering
// DescribeStacks for the stack LOREBOOK_STACK_NAME names. LOREBOOK_DDB_ENDPOINT points at nothing:
// an `--aws` run must not use it. Announcing goes to the real test PDS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { TOKEN_TRUST_MS } from '../../../src/app/context/verified-tokens.ts';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { scanStory } from '../../../src/domain/capability/scan.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { readItem } from '../../../src/store/read-items.ts';
import { INDEXES } from '../../../src/store/schema.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storyPipingToShell } from '../../helpers/capability-stories.ts';
import { NOWHERE, operatorAwsEnv } from '../../helpers/command-env.ts';
import { type FakeCloudFormation, startFakeCloudFormation } from '../../helpers/fake-cloudformation.ts';
import { BASE_URL, useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('aws-commands');
const bsky = useBluesky();
const alice = caller('alice');
const STACK = 'LorebookOps';
/** Each run is a cold Node start (the sweep's imports @atproto/api): seconds on a busy machine. */
const CLI_TEST_MS = 180_000;
/** Nothing listens there: a command that used it would fail. */
let cloudFormation: FakeCloudFormation;

beforeAll(async () => {
  cloudFormation = await startFakeCloudFormation({ [STACK]: { TableName: app.ctx().store.tableName, FunctionUrl: 'https://fn.test/' } });
});
afterAll(async () => cloudFormation?.close());

/** The operator's shell: region, credentials, the stack's name, and nothing of a local store. */
function awsEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...operatorAwsEnv({ name: STACK, cloudFormationUrl: cloudFormation.url, dynamoDbEndpoint: testEndpoint() }),
    LOREBOOK_IMAGE_DIR: app.imageDir(),
    ...extra,
  };
}

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(command: string[], extra: NodeJS.ProcessEnv = {}): Promise<Output> {
  try {
    const { stdout, stderr } = await run(command[0] as string, command.slice(1), {
      cwd: process.cwd(),
      env: awsEnv(extra),
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const node = (file: string, args: string[], extra?: NodeJS.ProcessEnv) => cli([process.execPath, `src/cli/${file}`, ...args], extra);
const metaOf = async (slug: string) => (await readItem(app.ctx().store, storyKey(slug))) as Record<string, unknown>;
const posting = () => ({
  LOREBOOK_BASE_URL: BASE_URL,
  BLUESKY_SERVICE: bsky.proxy().url,
  BLUESKY_IDENTIFIER: bsky.account().handle,
  BLUESKY_APP_PASSWORD: bsky.account().appPassword,
});

describe('npm run sweep -- --aws', () => {
  it(
    '--retry puts a failed announcement back on the deployed queue; without BLUESKY_* it leaves the post to the sweeper function, with them it posts once',
    async () => {
      const { ctx, idle } = withAnnouncing(app.ctx(), bsky.announcer({}, { appPassword: 'wrong-password' }));
      const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Failed on the deployed stack') });
      await idle();
      expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('failed');

      const requeued = await node('sweep.ts', ['--aws', '--retry', slug]);
      expect(requeued.code, requeued.stderr).toBe(0);
      expect(requeued.stderr).toContain(`sweep: retry ${slug}: requeued`);
      expect(requeued.stderr).toContain(
        `the sweeper function of the stack posts what was put back in table "${app.ctx().store.tableName}"`,
      );
      expect(await bsky.postsFor(slug)).toEqual([]);
      expect((await getStory(app.ctx(), alice, { slug })).announce.state).toBe('pending');

      const swept = await node('sweep.ts', ['--aws', '--retry', slug, '--json'], posting());
      expect(swept.code, swept.stderr).toBe(0);
      expect(swept.stderr).toContain(`table "${app.ctx().store.tableName}" in eu-west-1 (stack "${STACK}")`);
      expect(JSON.parse(swept.stdout)).toMatchObject({ outcomes: { posted: 1 } });
      const posts = await bsky.postsFor(slug);
      expect(posts).toHaveLength(1);
      expect((await getStory(app.ctx(), alice, { slug })).announce).toEqual({ state: 'posted', uri: posts[0]?.uri });
      expect(cloudFormation.asked()).toEqual([STACK, STACK]);
    },
    CLI_TEST_MS,
  );
});

describe('npm run token -- --aws', () => {
  it(
    'issues a token on the table the stack names, lists it through the token:aws alias and revokes it with LOREBOOK_TABLE set and nothing looked up',
    async () => {
      const asked = cloudFormation.asked().length;
      const created = await node('token.ts', ['create', '--handle', 'first-admin', '--expires', '7d', '--aws']);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toContain(`token: table "${app.ctx().store.tableName}" in eu-west-1 (stack "${STACK}")`);
      const token = /^\s+(\S{20,})$/m.exec(created.stdout)?.[1] as string;
      expect(await authenticate(app.ctx(), `Bearer ${token}`)).toMatchObject({ handle: 'first-admin' });
      const tokenId = /token id \(for list and revoke\): (\S+)/.exec(created.stdout)?.[1] as string;

      const listed = await cli(['npm', 'run', '--silent', 'token:aws', '--', 'list', '--handle', 'first-admin']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(tokenId);
      expect(cloudFormation.asked().length).toBe(asked + 2);

      const revoked = await node('token.ts', ['revoke', tokenId, '--aws'], {
        LOREBOOK_TABLE: app.ctx().store.tableName,
        AWS_ENDPOINT_URL_CLOUDFORMATION: NOWHERE,
      });
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain(`Revoked ${tokenId}`);
      expect(cloudFormation.asked().length).toBe(asked + 2);
      app.advance(TOKEN_TRUST_MS);
      await expect(authenticate(app.ctx(), `Bearer ${token}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    },
    CLI_TEST_MS,
  );
});

describe('npm run capability:rescan -- --aws and npm run bsky:backfill-documents -- --aws', () => {
  it(
    'the re-scan writes the missing report on the deployed table; the backfill puts a story owed its document on the queue',
    async () => {
      const piping = storyPipingToShell('Stored before the scanner, deployed');
      const { slug: unscanned } = await publishStory(app.ctx(), alice, { markdown: piping });
      const { slug: undocumented } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Posted before documents, deployed') });
      const update = (slug: string, expression: string, values?: Record<string, unknown>) =>
        app.ctx().store.client.send(
          new UpdateCommand({
            TableName: app.ctx().store.tableName,
            Key: { PK: `STORY#${slug}`, SK: 'META' },
            UpdateExpression: expression,
            ...(expression.includes('#queue')
              ? { ExpressionAttributeNames: { '#queue': INDEXES.announce.partition, '#queueSort': INDEXES.announce.sort } }
              : {}),
            ...(values === undefined ? {} : { ExpressionAttributeValues: values }),
          }),
        );
      await update(unscanned, 'REMOVE capability');
      await update(undocumented, 'SET bsky_uri = :post REMOVE #queue, #queueSort', {
        ':post': 'at://did:plc:awscommands/app.bsky.feed.post/3kawsbackfill',
      });

      const rescanned = await node('capability-rescan.ts', ['--aws', '--json']);
      expect(rescanned.code, rescanned.stderr).toBe(0);
      expect(JSON.parse(rescanned.stdout)).toMatchObject({ finished: true });
      expect((await metaOf(unscanned)).capability).toEqual(scanStory(piping));

      const backfilled = await node('backfill-documents.ts', ['--aws', '--json']);
      expect(backfilled.code, backfilled.stderr).toBe(0);
      expect(JSON.parse(backfilled.stdout)).toMatchObject({ queued: expect.arrayContaining([undocumented]) });
      expect(await metaOf(undocumented)).toMatchObject({ [INDEXES.announce.partition]: 'ANNOUNCE' });
    },
    CLI_TEST_MS,
  );
});

describe('npm run purge -- --aws and npm run account -- delete --aws', () => {
  it(
    'both work on the table the stack names',
    async () => {
      const leaver = { account: 'did:plc:leavesbyaws', handle: 'leaver.aws.test' };
      await ensureAccount(app.ctx(), leaver);
      const { slug } = await publishStory(app.ctx(), leaver, { markdown: storyTitled('Purged, then its author leaves') });

      const purged = await node('purge.ts', [slug, '--aws', '--json']);
      expect(purged.code, purged.stderr).toBe(0);
      expect(JSON.parse(purged.stdout)).toMatchObject({ outcome: { slug } });

      // No grace to wait out: nothing of the leaver's is in flight here (design.md#account-deletion).
      const deleted = await node('account.ts', ['delete', leaver.account, '--aws', '--json'], {
        LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS: '0',
      });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ account: leaver.account, finished: true });
      expect(await metaOf(slug)).toMatchObject({ author: '', deleted_at: expect.any(String) });
    },
    CLI_TEST_MS,
  );
});

describe('what --aws needs', () => {
  it(
    "each command's --help says --aws and what it needs; without AWS_REGION it is a usage error (exit 2); an unknown stack says what to set (exit 1)",
    async () => {
      const files = ['sweep.ts', 'token.ts', 'capability-rescan.ts', 'backfill-documents.ts'];
      const helps = await Promise.all(files.map((file) => node(file, ['--help'])));
      for (const [index, help] of helps.entries()) {
        expect(help.code, `${files[index]}: ${help.stderr}`).toBe(0);
        expect(help.stdout).toContain('--aws ');
        expect(help.stdout).toContain('With --aws: AWS_REGION');
      }
      const noRegion = await node('sweep.ts', ['--aws'], { AWS_REGION: '' });
      expect(noRegion.code).toBe(2);
      expect(noRegion.stderr).toContain("--aws needs AWS_REGION (the deployed stack's region)");

      const unknown = await node('capability-rescan.ts', ['--aws', '--dry-run'], { LOREBOOK_STACK_NAME: 'NoSuchStack' });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('the stack "NoSuchStack" was not found in eu-west-1');
      expect(unknown.stderr).toContain('set LOREBOOK_STACK_NAME');
    },
    CLI_TEST_MS,
  );
});
