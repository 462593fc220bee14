// A backup's lines, produced as they are read: the table a Scan page at a time, then the image
// blobs of a local image directory one file at a time. The caller pipes them to a file, so a
// page or one image is all that is held at once, whatever the store's size.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseImageFile } from '../../domain/image/image-name.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupCounts, endLine, headerLine, imageLine, itemLine } from './backup-lines.ts';
import { leftOutOfBackup, scanItems } from './table-items.ts';

export interface BackupSource {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** The local image directory whose blobs go into the backup; undefined: the table only. */
  imageDirectory: string | undefined;
  nowMs: number;
}

export async function* backupLines(source: BackupSource, progress: (counts: BackupCounts) => void): AsyncGenerator<string> {
  const counts: BackupCounts = { items: 0, images: 0 };
  yield headerLine({
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    table: source.tableName,
    exported_at: new Date(source.nowMs).toISOString(),
  });
  for await (const page of scanItems(source.client, source.tableName)) {
    const kept = page.filter((item) => !leftOutOfBackup(item, source.nowMs));
    if (kept.length > 0) yield kept.map(itemLine).join('');
    counts.items += kept.length;
    progress(counts);
  }
  if (source.imageDirectory !== undefined) {
    for (const file of await imageFiles(source.imageDirectory)) {
      yield imageLine(file, await readFile(join(source.imageDirectory, file)));
      counts.images += 1;
      if (counts.images % 100 === 0) progress(counts);
    }
    progress(counts);
  }
  yield endLine(counts);
}

/** The blobs in the directory, by name: a temporary file of a write under way is not one. */
async function imageFiles(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).filter((file) => parseImageFile(file) !== undefined).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
