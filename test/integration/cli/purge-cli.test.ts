// `npm run purge` as an operator runs it (node on the CLI's file, another process) on this suite's
// DynamoDB Local table: keeping the current text, then replacing it from a file, then again.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const app = useAppFixture('purge-cli');
const alice = caller('alice');
const CLI = 'src/cli/purge.ts';
const CLI_TEST_MS = 180_000;
const SECRET = 'ghp_purgeclisecret0123456789';

function env(): NodeJS.ProcessEnv {
  return {
    ...withoutLorebookSettings(),
    LOREBOOK_DDB_ENDPOINT: testEndpoint(),
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_IMAGE_DIR: app.imageDir(),
  };
}

const purge = (args: string[]) => run(process.execPath, [CLI, ...args], { cwd: process.cwd(), env: env(), timeout: 90_000 });
const itemsNaming = async (text: string) => (await app.allItems()).filter((item) => JSON.stringify(item).includes(text));

describe('npm run purge', () => {
  it(
    'without --markdown keeps the current text and strips the earlier revisions; --markdown replaces the text; a second run changes nothing',
    async () => {
      const title = 'Purged by the operator';
      const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(title, { extra: `Token ${SECRET}.` }) });
      await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Token removed.' }), kind: 'rephrase' });

      const kept = await purge([slug]);
      expect(kept.stdout).toBe(
        `purge: ${slug}: the current text (revision 2) kept; every revision before 2 has no markdown; 0 image(s) deleted\n`,
      );
      expect(await itemsNaming(SECRET)).toEqual([]);

      const file = join(mkdtempSync(join(tmpdir(), 'purge-')), 'redacted.md');
      writeFileSync(file, storyTitled(title, { extra: 'Token: [redacted].' }));
      const replaced = JSON.parse((await purge([slug, '--markdown', file, '--json'])).stdout);
      expect(replaced).toMatchObject({ replaced_text: true, outcome: { slug, revision: 3, redacted_below: 3 } });
      expect(await itemsNaming('Token removed.')).toEqual([]);

      const before = await app.state();
      const again = JSON.parse((await purge([slug, '--markdown', file, '--json'])).stdout);
      expect(again).toMatchObject({ replaced_text: false, outcome: { revision: 3, redacted_below: 3 } });
      expect(await app.state()).toEqual(before);
    },
    CLI_TEST_MS,
  );

  it(
    '--help explains it; no slug is a usage error (exit 2); an unknown slug exits 1',
    async () => {
      expect((await purge(['--help'])).stdout).toContain('usage: npm run purge -- <slug>');
      await expect(purge([])).rejects.toMatchObject({ code: 2 });
      await expect(purge(['2026-01-01-no-such-story'])).rejects.toMatchObject({ code: 1 });
    },
    CLI_TEST_MS,
  );
});
