// `npm run backup -- export <file>` / `import <file>`: the store to one file and back (docs/backup.md).
// Export streams the table a Scan page at a time and, for a local store, the image directory's
// blobs; import writes them into a table that must be empty unless --force. Progress on stderr,
// the summary on stdout.
import { existsSync } from 'node:fs';
import { readBackupFile, writeBackupFile } from '../store/backup/backup-file.ts';
import type { BackupCounts } from '../store/backup/backup-lines.ts';
import { backupLines } from '../store/backup/export-backup.ts';
import { importBackup } from '../store/backup/import-backup.ts';
import { tableHasItems } from '../store/backup/table-items.ts';
import { awsHelp } from './command-context.ts';
import { type OpenedCommand, type OperatorCommand, printLine, runOperatorCommand } from './operator-command.ts';

const HELP = `usage: npm run backup -- export <file> [--aws] [--json]
       npm run backup -- import <file> [--force] [--aws] [--json]

export: writes every item of the table to <file> (a new file: an existing one is never
overwritten), one JSON line each after a version header, gzipped when the name ends in .gz.
Without --aws the image blobs of the local image directory (LOREBOOK_IMAGE_DIR) go into the file
too; with --aws the images stay in the stack's versioned bucket (docs/backup.md says why). Left
out: the stream checkpoints, the search pointer and search log (the restored store makes its
own) and expired items. Memory stays bounded whatever the store's size: one Scan page or one
image at a time. Safe while npm start runs; a write made during the export may or may not be in it.

import: writes a backup's items (as they were, attribute for attribute) into the table and its
images into the image store. Refused when the table holds any item, unless --force (then items
with the same key are replaced, the others kept). A file cut short (no trailer) is reported
after what it held was written; import it again with --force once you have the whole file.

  <file>   the backup file (.gz: gzip)

options:
  --force     import into a table that is not empty
  --aws       the deployed table in AWS instead of a local store (below)
  --json      print the summary as JSON
  -h, --help  this text

Without --aws the store is found as for npm start (docs/config.md).

${awsHelp('export: Scan; import: Scan (one item, the emptiness check) and BatchWriteItem (and s3:PutObject on the image bucket for a backup with images)')}

exit status: 0 when the whole file was written or read, 1 when it could not be, 2 on a usage error.
`;

type BackupTask = { kind: 'export' | 'import'; file: string; force: boolean };

/** Progress at most once a second, and always the last count. */
function throttled(log: (line: string) => void, verb: string): { tick(counts: BackupCounts): void; last(counts: BackupCounts): void } {
  let loggedAt = 0;
  const say = (counts: BackupCounts): void => log(`${verb} ${counts.items} item(s), ${counts.images} image(s)`);
  return {
    tick(counts) {
      if (Date.now() - loggedAt < 1000) return;
      loggedAt = Date.now();
      say(counts);
    },
    last: say,
  };
}

async function runExport({ ctx, config, where, log }: OpenedCommand, file: string, json: boolean): Promise<number> {
  const imageDirectory = 'directory' in config.images ? config.images.directory : undefined;
  log(
    `exporting table "${config.tableName}" ${where}${imageDirectory === undefined ? '' : ` and the images in ${imageDirectory}`} to ${file}`,
  );
  const started = Date.now();
  const progress = throttled(log, 'exported');
  let counts: BackupCounts = { items: 0, images: 0 };
  await writeBackupFile(
    file,
    backupLines({ client: ctx.store.client, tableName: config.tableName, imageDirectory, nowMs: ctx.store.now() }, (now) => {
      counts = now;
      progress.tick(now);
    }),
  );
  progress.last(counts);
  return summary('exported', file, counts, started, json);
}

async function runImport({ ctx, config, where, log }: OpenedCommand, task: BackupTask, json: boolean): Promise<number> {
  if (!existsSync(task.file)) throw new Error(`no such file: ${task.file}`);
  if (!task.force && (await tableHasItems(ctx.store.client, config.tableName)))
    throw new Error(`table "${config.tableName}" ${where} is not empty: import into an empty table, or pass --force`);
  log(`importing ${task.file} into table "${config.tableName}" ${where} and the images into ${ctx.images?.describe ?? 'no image store'}`);
  const started = Date.now();
  const progress = throttled(log, 'imported');
  const { header, counts } = await importBackup(
    readBackupFile(task.file),
    { client: ctx.store.client, tableName: config.tableName, images: ctx.images },
    progress.tick,
  );
  progress.last(counts);
  log(`the backup was exported from table "${header.table}" at ${header.exported_at}`);
  return summary('imported', task.file, counts, started, json);
}

function summary(verb: string, file: string, counts: BackupCounts, started: number, json: boolean): number {
  const seconds = (Date.now() - started) / 1000;
  printLine(
    json
      ? JSON.stringify({ [verb]: counts, file, seconds }, null, 2)
      : `backup: ${verb} ${counts.items} item(s) and ${counts.images} image(s) (${file}) in ${seconds.toFixed(1)} s`,
  );
  return 0;
}

const backup: OperatorCommand<BackupTask> = {
  name: 'backup',
  help: HELP,
  options: { force: { type: 'boolean', default: false } },
  parse({ positionals, values }) {
    const [command, file, ...rest] = positionals;
    if ((command !== 'export' && command !== 'import') || file === undefined || rest.length > 0)
      throw new Error('expected: export <file>, or import <file>');
    if (command === 'export' && values.force === true) throw new Error('--force is for import only');
    return { kind: command, file, force: values.force === true };
  },
  run: (opened, task, { json }) => (task.kind === 'export' ? runExport(opened, task.file, json) : runImport(opened, task, json)),
};

process.exitCode = await runOperatorCommand(backup, process.argv.slice(2));
