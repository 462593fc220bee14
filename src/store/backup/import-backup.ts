// Writes a backup's lines into a table and an image store. Items go in batches of 25, four
// batches at a time, as they are read; an image is checked against its content-hash name before
// it is stored. The counts in the trailer must match what was read: a file cut short is refused
// at its end (what was read before is written: running the import again with --force finishes
// it, since every put is of the item as it was).
import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseImageFile } from '../../domain/image/image-name.ts';
import type { ImageBlobs } from '../image/blobs.ts';
import { type BackupCounts, type BackupHeader, parseHeader, parseLine, type StoredItem } from './backup-lines.ts';
import { putItems, WRITE_BATCH } from './table-items.ts';

export interface BackupTarget {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Where the backup's images go; undefined: a store without images (a backup with images is refused). */
  images: ImageBlobs | undefined;
}

const BATCHES_IN_FLIGHT = 4;

export async function importBackup(
  lines: AsyncIterable<string>,
  target: BackupTarget,
  progress: (counts: BackupCounts) => void,
): Promise<{ header: BackupHeader; counts: BackupCounts }> {
  const iterator = lines[Symbol.asyncIterator]();
  const header = parseHeader((await iterator.next()).value as string | undefined);
  const counts: BackupCounts = { items: 0, images: 0 };
  let pending: StoredItem[] = [];
  const flush = async (): Promise<void> => {
    const batches: StoredItem[][] = [];
    for (let i = 0; i < pending.length; i += WRITE_BATCH) batches.push(pending.slice(i, i + WRITE_BATCH));
    await Promise.all(batches.map((batch) => putItems(target.client, target.tableName, batch)));
    counts.items += pending.length;
    pending = [];
    progress(counts);
  };
  let trailer: BackupCounts | undefined;
  for (let number = 2, next = await iterator.next(); next.done !== true; number += 1, next = await iterator.next()) {
    if (trailer !== undefined) throw new Error(`line ${number} follows the trailer`);
    const line = parseLine(next.value, number);
    if (line.kind === 'item') {
      pending.push(line.item);
      if (pending.length === WRITE_BATCH * BATCHES_IN_FLIGHT) await flush();
    } else if (line.kind === 'image') {
      await flush();
      await putImage(target.images, line.file, line.data, number);
      counts.images += 1;
    } else {
      trailer = line.counts;
    }
  }
  await flush();
  if (trailer === undefined)
    throw new Error(`the backup ends without its trailer (cut short?): ${counts.items} item(s) and ${counts.images} image(s) were written`);
  if (trailer.items !== counts.items || trailer.images !== counts.images)
    throw new Error(
      `the trailer counts ${trailer.items} item(s) and ${trailer.images} image(s), the file held ${counts.items} and ${counts.images}`,
    );
  return { header, counts };
}

async function putImage(images: ImageBlobs | undefined, file: string, data: Uint8Array, number: number): Promise<void> {
  if (images === undefined) throw new Error(`line ${number}: the backup holds images and this store keeps none`);
  const name = parseImageFile(file);
  if (name === undefined) throw new Error(`line ${number}: "${file}" is not an image name`);
  if (createHash('sha256').update(data).digest('hex') !== name.sha256)
    throw new Error(`line ${number}: the bytes of ${file} do not match its name`);
  await images.put(file, data, name.type);
}
