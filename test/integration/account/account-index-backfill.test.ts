// `npm run account -- backfill-index` (design.md#account-deletion) on this suite's DynamoDB Local table: reports, a
// web session and an image record written without their account index items (as before the
// release that added them) get them, a second run writes nothing, and the account's deletion then
// leaves nothing of it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { backfillAccountIndex } from '../../../src/app/account/backfill-account-index.ts';
import { deleteAccount } from '../../../src/app/account/delete-account.ts';
import { deleteAccountSteps } from '../../../src/app/account/run-account-deletions.ts';
import { createWebSession } from '../../../src/store/identity/web-session-items.ts';
import { createImageRecord } from '../../../src/store/image/items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { writeAccountWorld } from '../../helpers/account-world.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
// No write races this deletion: the finish need not wait for the grace.
const app = useAppFixture('account-index-backfill', { accountDeletionGraceSeconds: 0, newAccountHours: 0 });
const CLI_TEST_MS = 180_000;
const INDEX_PREFIXES = ['ONSTORY#', 'WEBSESS#', 'IMAGE#'];

const mentions = (item: Record<string, unknown>, account: string): boolean => JSON.stringify(item).includes(account);

describe('npm run account -- backfill-index', () => {
  it(
    'gives reports, a web session and an image written without index items theirs; a second run writes nothing; the deletion then leaves nothing of the account',
    async () => {
      const people = { alice: caller('alice'), bob: caller('bob'), carol: caller('carol') };
      const world = await writeAccountWorld(app.ctx(), people);
      const now = app.ctx().store.now();
      const sha256 = 'a'.repeat(64);
      await writeAtomically(app.ctx().store, [
        createWebSession({
          session_hash: 'b'.repeat(64),
          account: people.alice.account,
          created_at: new Date(now).toISOString(),
          expires_at: epochSeconds(now) + 3600,
        }),
        createImageRecord({
          sha256,
          type: 'image/png',
          width: 1,
          height: 1,
          bytes: 68,
          uploaded_by: people.alice.account,
          uploaded_at: new Date(now).toISOString(),
        }),
      ]);
      // As before the release: alice's reports have no index items (bob's and carol's keep theirs).
      const aliceIndex = (await app.allItems()).filter(
        (item) => item.PK === `ACCOUNT#${people.alice.account}` && INDEX_PREFIXES.some((prefix) => String(item.SK).startsWith(prefix)),
      );
      expect(aliceIndex).toHaveLength(2);
      await writeAtomically(
        app.ctx().store,
        aliceIndex.map((item) => ({ Delete: { Key: { PK: String(item.PK), SK: String(item.SK) } } })),
      );

      const backfilled = await run(process.execPath, ['src/cli/account.ts', 'backfill-index', '--json'], {
        cwd: process.cwd(),
        env: {
          ...withoutLorebookSettings(),
          LOREBOOK_DDB_ENDPOINT: testEndpoint(),
          LOREBOOK_TABLE: app.ctx().store.tableName,
          LOREBOOK_IMAGE_DIR: app.imageDir(),
        },
        timeout: 90_000,
      });
      // Five reports (alice's reproduction and check of bob's first story share one index item), a session, an image.
      expect(JSON.parse(backfilled.stdout)).toEqual({ pages: 1, found: 7, already_indexed: 3, written: 4, gone: 0 });
      expect(backfilled.stderr).toContain('account: page 1: 7 found');
      expect(await backfillAccountIndex(app.ctx())).toEqual({ pages: 1, found: 7, already_indexed: 7, written: 0, gone: 0 });

      await deleteAccount(app.ctx(), people.alice, { confirm: 'alice.test' });
      expect(await deleteAccountSteps(app.ctx(), people.alice.account, 10_000)).toMatchObject({ finished: true });
      const items = await app.allItems();
      // Kept, as after any deletion: the tombstone and bob's own notifications that she reproduced his stories.
      expect(
        items.filter((item) => mentions(item, people.alice.account) && !String(item.PK).startsWith(`INBOX#${people.bob.account}`)),
      ).toEqual([{ PK: `ACCOUNT#${people.alice.account}`, SK: 'META', id: people.alice.account, deleted_at: expect.any(String) }]);
      const meta = (slug: string) => items.find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
      const [bob1, bob2] = world.bobStories as [string, string];
      expect(meta(bob1)).toMatchObject({ counts: { worked: 1, has_problem: 0 }, reproducers: [people.carol.account] });
      expect(meta(bob2)).toMatchObject({ counts: { failed: 0 } });
    },
    CLI_TEST_MS,
  );
});
