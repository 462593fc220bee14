// `npm run account -- delete` as an operator runs it (node on the CLI's file, another process) on
// this suite's DynamoDB Local table: the account's stories, reports and token go, its counts on
// another's story are taken back, a second run says there is no such account, and usage errors
// exit 2 before anything is opened.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { storyKey } from '../../../src/store/keys.ts';
import { readItem } from '../../../src/store/read-items.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
// Its accounts are made a second before they report: established at once here (design.md#new-accounts).
const app = useAppFixture('account-cli', { newAccountHours: 0 });
const CLI = 'src/cli/account.ts';
const CLI_TEST_MS = 180_000;
const leaver = { account: 'did:plc:leavesbycli', handle: 'leaver.cli.test' };
const stayer = { account: 'did:plc:staysbycli', handle: 'stayer.cli.test' };

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...withoutLorebookSettings(),
    LOREBOOK_DDB_ENDPOINT: testEndpoint(),
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_IMAGE_DIR: app.imageDir(),
    // A second, not a minute: the command waits out what is left of the grace before its last step
    // (none when the steps before it took longer, as under load, so the wait is not asserted here).
    LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS: '1',
    ...extra,
  };
}

const account = (args: string[], extra?: NodeJS.ProcessEnv) =>
  run(process.execPath, [CLI, ...args], { cwd: process.cwd(), env: env(extra), timeout: 90_000 });

describe('npm run account -- delete', () => {
  it(
    "deletes the account named by its DID to the end, takes its reproduction back from the other's count, and a second run finds no live account",
    async () => {
      for (const person of [leaver, stayer]) await ensureAccount(app.ctx(), person);
      const own = await publishStory(app.ctx(), leaver, { markdown: storyTitled('Written by the one who leaves') });
      const theirs = await publishStory(app.ctx(), stayer, { markdown: storyTitled('Written by the one who stays') });
      await reportReproduction(app.ctx(), leaver, { slug: theirs.slug, result: 'worked' });
      expect((await readItem(app.ctx().store, storyKey(theirs.slug)))?.counts).toMatchObject({ worked: 1 });

      const deleted = await account(['delete', leaver.account, '--json']);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ account: leaver.account, handle: leaver.handle, finished: true });
      expect(deleted.stderr).toContain(`account: deleting "${leaver.account}"`);
      expect(deleted.stderr).toContain('account: step: stories');

      expect((await readItem(app.ctx().store, storyKey(theirs.slug)))?.counts).toMatchObject({ worked: 0 });
      const left = (await app.allItems()).filter((item) => JSON.stringify(item).includes('Written by the one who leaves'));
      expect(left).toEqual([]);
      expect(await readItem(app.ctx().store, storyKey(own.slug))).toMatchObject({ author: '', deleted_at: expect.any(String) });

      await expect(account(['delete', leaver.account])).rejects.toMatchObject({ code: 1 });
    },
    CLI_TEST_MS,
  );

  it(
    '--help explains it; a missing or extra argument and --aws without the stack settings are usage errors (exit 2)',
    async () => {
      expect((await account(['--help'])).stdout).toContain('usage: npm run account -- delete <handle|did>');
      await expect(account([])).rejects.toMatchObject({ code: 2 });
      await expect(account(['delete'])).rejects.toMatchObject({ code: 2 });
      await expect(account(['delete', 'a', 'b'])).rejects.toMatchObject({ code: 2 });
      await expect(account(['delete', stayer.account, '--aws'], { LOREBOOK_TABLE: '', AWS_REGION: '' })).rejects.toMatchObject({ code: 2 });
    },
    CLI_TEST_MS,
  );
});
