// The backup file's edges, in process against DynamoDB Local: a file cut short, a version this
// lorebook does not read, an image whose bytes are not its name, and an export never overwrites.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBackupFile, writeBackupFile } from '../../../src/store/backup/backup-file.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, endLine, headerLine, imageLine, itemLine } from '../../../src/store/backup/backup-lines.ts';
import { importBackup } from '../../../src/store/backup/import-backup.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';

const app = useAppFixture('import-backup');
const header = headerLine({ format: BACKUP_FORMAT, version: BACKUP_VERSION, table: 'elsewhere', exported_at: '2026-12-01T00:00:00.000Z' });
const item = (n: number) => itemLine({ PK: { S: `TEST#${n}` }, SK: { S: 'META' }, tags: { SS: ['a', 'b'] }, n: { N: '1.50' } });
const target = () => ({ client: app.ctx().store.client, tableName: app.ctx().store.tableName, images: app.ctx().images });

async function fileOf(lines: string[]): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'backup-edge-')), 'b.ndjson.gz');
  await writeBackupFile(
    file,
    (async function* () {
      yield* lines;
    })(),
  );
  return file;
}

const imported = async (lines: string[]) => importBackup(readBackupFile(await fileOf(lines)), target(), () => {});

describe('importing a backup file', () => {
  it('writes each item attribute for attribute (a set stays a set, a number keeps its digits) and checks the trailer', async () => {
    expect((await imported([header, item(1), item(2), endLine({ items: 2, images: 0 })])).counts).toEqual({ items: 2, images: 0 });
    const stored = (await app.allItems()).filter((row) => String(row.PK).startsWith('TEST#'));
    expect(stored).toEqual([1, 2].map((n) => ({ PK: `TEST#${n}`, SK: 'META', tags: ['a', 'b'], n: 1.5 })));
  });

  it('a file cut short (no trailer), a wrong count, another version or an image not matching its name is refused with the reason', async () => {
    await expect(imported([header, item(3)])).rejects.toThrow('the backup ends without its trailer (cut short?): 1 item(s)');
    await expect(imported([header, item(4), endLine({ items: 2, images: 0 })])).rejects.toThrow('the trailer counts 2 item(s)');
    await expect(imported(['{"format":"lorebook-backup","version":99}\n'])).rejects.toThrow(
      'backup version 99 is not one this lorebook reads',
    );
    await expect(imported(['{"hello":1}\n'])).rejects.toThrow('not a lorebook backup');
    const liar = imageLine(`${'0'.repeat(64)}.png`, new Uint8Array([1, 2, 3]));
    await expect(imported([header, liar, endLine({ items: 0, images: 1 })])).rejects.toThrow('do not match its name');
  });

  it('an export never overwrites a file that is there', async () => {
    const file = await fileOf([header]);
    writeFileSync(`${file}.plain`, 'kept');
    await expect(writeBackupFile(`${file}.plain`, (async function* () {})())).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
