// A search snapshot object: the index (story-index.ts toJSON) and its watermark, as gzip JSON.
// The watermark travels in the object as well as in the pointer, so an object read on its own
// says how far the log must be replayed onto it.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { AsPlainObject } from 'minisearch';
import { type IndexSnapshotBody, loadStoryIndex, type StoryIndex } from './story-index.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Bumped when the object's shape changes: an object of another format is rebuilt, not misread. */
export const SNAPSHOT_FORMAT = 1;

export interface SnapshotObject {
  format: number;
  watermark: number;
  index: IndexSnapshotBody;
}

/** The index's parts too large for one message, as snapshot-decode-thread.ts hands them over. */
export type SnapshotPiece =
  | { part: 'entries'; items: IndexSnapshotBody['entries'] }
  | { part: 'index'; items: AsPlainObject['index'] }
  | { part: 'documentIds' | 'fieldLength' | 'storedFields'; items: [string, unknown][] };

/** What the decode thread posts: the head (all but the large parts), then pieces, then the end. */
export type SnapshotMessage =
  | { kind: 'other-format' }
  | { kind: 'head'; watermark: number; terms: Omit<AsPlainObject, 'index' | 'documentIds' | 'fieldLength' | 'storedFields'> }
  | { kind: 'end' };

export async function encodeSnapshot(index: StoryIndex, watermark: number): Promise<Uint8Array> {
  const object: SnapshotObject = { format: SNAPSHOT_FORMAT, watermark, index: index.toJSON() };
  return new Uint8Array(await gzipAsync(JSON.stringify(object)));
}

/** The index and watermark in the object, or undefined for an object of another format. */
export async function decodeSnapshot(data: Uint8Array): Promise<{ index: StoryIndex; watermark: number } | undefined> {
  const object = JSON.parse((await gunzipAsync(data)).toString('utf8')) as SnapshotObject;
  if (object.format !== SNAPSHOT_FORMAT) return undefined;
  return { index: loadStoryIndex(object.index), watermark: object.watermark };
}

/** A snapshot's object name: its watermark first (zero-padded), so names sort by time; a random tail keeps two jobs apart. */
export function snapshotName(watermark: number, random: () => number): string {
  const tail = Math.floor(random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  return `${String(watermark).padStart(15, '0')}-${tail}.json.gz`;
}
