// `npm run backup` as an operator runs it (node on the CLI's file, another process): a store of
// 20 stories with reports, drafts and images exported, imported into an empty table and image
// directory, and every answer for every story compared byte for byte.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { answersFor, BACKUP_WORLD_CONFIG, seedBackupWorld } from '../../helpers/backup-world.ts';
import { withoutLorebookSettings } from '../../helpers/command-env.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const run = promisify(execFile);
const source = useAppFixture('backup-source', BACKUP_WORLD_CONFIG);
const target = useAppFixture('backup-target', BACKUP_WORLD_CONFIG);
const CLI = 'src/cli/backup.ts';
const CLI_TEST_MS = 120_000;
const STORIES = 20;

const backup = (store: typeof source, args: string[]) =>
  run(process.execPath, [CLI, ...args], {
    cwd: process.cwd(),
    timeout: 60_000,
    env: {
      ...withoutLorebookSettings(),
      LOREBOOK_DDB_ENDPOINT: testEndpoint(),
      LOREBOOK_TABLE: store.ctx().store.tableName,
      LOREBOOK_IMAGE_DIR: store.imageDir(),
    },
  });

describe('npm run backup', () => {
  it(
    'export then import into an empty store: every /v1, page and MCP answer of every story is byte-identical, images included',
    async () => {
      const world = await seedBackupWorld(source.ctx(), STORIES);
      const file = join(mkdtempSync(join(tmpdir(), 'backup-')), 'store.ndjson.gz');

      const exported = JSON.parse((await backup(source, ['export', file, '--json'])).stdout);
      expect(exported.exported).toEqual({ items: expect.any(Number), images: STORIES / 5 });
      // The source is not empty: an import into it is refused and changes nothing.
      const before = await source.allItems();
      await expect(backup(source, ['import', file])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is not empty') });
      expect(await source.allItems()).toEqual(before);

      const imported = JSON.parse((await backup(target, ['import', file, '--json'])).stdout);
      expect(imported.imported).toEqual(exported.exported);
      expect(target.imageFiles()).toEqual(source.imageFiles());

      const now = Date.now();
      const original = await answersFor(source.ctx(), world, world.slugs, now);
      const restored = await answersFor(target.ctx(), world, world.slugs, now);
      expect(original.size).toBe(STORIES * 3 + STORIES / 5 + (STORIES / 10) * 2);
      expect([...restored.entries()]).toEqual([...original.entries()]);
    },
    CLI_TEST_MS,
  );
});
