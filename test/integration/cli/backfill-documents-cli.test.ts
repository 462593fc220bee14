// `npm run bsky:backfill-documents` as an operator runs it (node on the CLI's file, another
// process) on this suite's DynamoDB Local table. The story is made "announced before documents
// existed" by writing its META as such (a post's at-uri on the marker, off the queue): the queueing
// is what this CLI does; the document itself is the sweeper's, proven against a real PDS in
// test/integration/bluesky/document-backfill.test.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { INDEXES } from '../../../src/store/schema.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('backfill-documents-cli');
const CLI = 'src/cli/backfill-documents.ts';
/** Each run is a cold Node start: seconds on a busy machine. */
const CLI_TEST_MS = 120_000;
let slug: string;

function env(): NodeJS.ProcessEnv {
  return { ...withoutLorebookSettings(), LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: app.ctx().store.tableName };
}

const backfill = async (args: string[]) => run(process.execPath, [CLI, ...args], { cwd: process.cwd(), env: env(), timeout: 60_000 });
const metaOf = async () => (await app.state()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META') as Record<string, unknown>;

beforeAll(async () => {
  ({ slug } = await publishStory(app.ctx(), caller('alice'), { markdown: storyTitled('Posted before documents existed') }));
  await app.ctx().store.client.send(
    new UpdateCommand({
      TableName: app.ctx().store.tableName,
      Key: { PK: `STORY#${slug}`, SK: 'META' },
      UpdateExpression: 'SET bsky_uri = :post REMOVE #queue, #queueSort',
      ExpressionAttributeNames: { '#queue': INDEXES.announce.partition, '#queueSort': INDEXES.announce.sort },
      ExpressionAttributeValues: { ':post': 'at://did:plc:backfilltest/app.bsky.feed.post/3kbackfill' },
    }),
  );
}, CLI_TEST_MS);

describe('npm run bsky:backfill-documents', () => {
  it(
    '--dry-run --json lists the story and writes nothing; a run queues it; the next run finds nothing owed',
    async () => {
      const before = await app.state();
      const dry = JSON.parse((await backfill(['--dry-run', '--json'])).stdout) as Record<string, unknown>;
      expect(dry).toMatchObject({ dry_run: true, stories: 1, owed: [slug], queued: [] });
      expect(await app.state()).toEqual(before);

      const real = await backfill([]);
      expect(real.stdout).toBe(`bsky:backfill-documents: 1 listed stories read, 1 owed a document, 1 put on the announce queue\n`);
      expect(real.stderr).toContain(`${slug}: on the announce queue`);
      expect(await metaOf()).toMatchObject({ [INDEXES.announce.partition]: 'ANNOUNCE' });
      const queued = await app.state();

      const again = JSON.parse((await backfill(['--json'])).stdout) as Record<string, unknown>;
      expect(again).toMatchObject({ stories: 1, owed: [], queued: [], changed: [] });
      expect(await app.state()).toEqual(queued);
    },
    CLI_TEST_MS,
  );

  it(
    '--help says what it does and exits 0; an unknown option, or --aws without AWS_REGION, is exit 2 with the usage',
    async () => {
      const help = await backfill(['--help']);
      expect(help.stdout).toContain('usage: npm run bsky:backfill-documents');
      expect(help.stdout).toContain('--dry-run');
      const refused = await backfill(['--everything']).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(2);
      expect(refused?.stderr).toContain('usage: npm run bsky:backfill-documents');
      // --aws without the stack's region: refused before any call is made.
      const noRegion = await backfill(['--aws']).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(noRegion?.code).toBe(2);
      expect(noRegion?.stderr).toContain("--aws needs AWS_REGION (the deployed stack's region)");
    },
    CLI_TEST_MS,
  );
});
