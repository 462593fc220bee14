// The worker thread's half of loading a snapshot (snapshot-load.ts): it unzips and parses the
// object, the costly part, and hands the index over in pieces, one per request of the main thread,
// so no single message costs the main thread's event loop more than a few milliseconds to take in.

import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { lowerThisThreadsPriority, SNAPSHOT_DECODE_NICENESS } from '../../offload/thread-priority.ts';
import { SNAPSHOT_FORMAT, type SnapshotMessage, type SnapshotObject, type SnapshotPiece } from './search-snapshot-codec.ts';

/** Postings (or map entries) in one piece: a few milliseconds of structured-clone work on either side. */
const PIECE_WEIGHT = 5000;

lowerThisThreadsPriority(SNAPSHOT_DECODE_NICENESS);

const port = parentPort;
if (port === null) throw new Error('snapshot-decode-thread.ts runs as a worker thread');
const nextRequest = (): Promise<unknown> => new Promise((resolve) => port.once('message', resolve));

function* pieces(object: SnapshotObject): Generator<SnapshotPiece> {
  const { index, documentIds, fieldLength, storedFields } = object.index.terms;
  yield* sliced('entries', object.index.entries, () => 1);
  yield* sliced('documentIds', Object.entries(documentIds), () => 1);
  yield* sliced('fieldLength', Object.entries(fieldLength), () => 1);
  yield* sliced('storedFields', Object.entries(storedFields), () => 1);
  yield* sliced('index', index, ([, fields]) => {
    let postings = 1;
    for (const stories of Object.values(fields)) postings += Object.keys(stories).length;
    return postings;
  });
}

function* sliced<T>(part: SnapshotPiece['part'], items: readonly T[], weigh: (item: T) => number): Generator<SnapshotPiece> {
  let start = 0;
  let weight = 0;
  for (let end = 0; end < items.length; end += 1) {
    weight += weigh(items[end] as T);
    if (weight < PIECE_WEIGHT && end + 1 < items.length) continue;
    yield { part, items: items.slice(start, end + 1) } as SnapshotPiece;
    start = end + 1;
    weight = 0;
  }
}

const object = JSON.parse(gunzipSync(workerData as Uint8Array).toString('utf8')) as SnapshotObject;
if (object.format !== SNAPSHOT_FORMAT) {
  port.postMessage({ kind: 'other-format' } satisfies SnapshotMessage);
} else {
  const { index: _index, documentIds: _ids, fieldLength: _lengths, storedFields: _stored, ...rest } = object.index.terms;
  port.postMessage({ kind: 'head', watermark: object.watermark, terms: rest } satisfies SnapshotMessage);
  for (const piece of pieces(object)) {
    await nextRequest();
    port.postMessage(piece);
  }
  await nextRequest();
  port.postMessage({ kind: 'end' } satisfies SnapshotMessage);
}
