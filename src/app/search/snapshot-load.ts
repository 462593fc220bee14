// An instance's load of a snapshot (docs/design.md#search), off its event loop: a worker thread unzips
// and parses the object (snapshot-decode-thread.ts) and hands the index over piece by piece; this
// side takes one piece per turn of the event loop and builds the index with MiniSearch's
// loadJSAsync, which yields every thousand terms. Requests are served between the pieces, from the
// index the instance already has; the new one is used only once it is whole. In a bundle (Lambda:
// one request at a time per instance) the snapshot is decoded inline.
import type { AsPlainObject } from 'minisearch';
import { decodeSnapshot, type SnapshotMessage, type SnapshotPiece } from './search-snapshot-codec.ts';
import { runThread, type ThreadRun, threadAvailable } from './search-thread.ts';
import { type IndexEntry, loadStoryIndexAsync, type StoryIndex } from './story-index.ts';

const DECODE_THREAD = new URL('./snapshot-decode-thread.ts', import.meta.url);

export interface LoadedSnapshot {
  index: StoryIndex;
  watermark: number;
}

/** The snapshot's index and watermark, or undefined for an object of another format. */
export async function loadSnapshot(data: Uint8Array, run: Pick<ThreadRun, 'onStart'> = {}): Promise<LoadedSnapshot | undefined> {
  if (!threadAvailable(DECODE_THREAD)) return decodeSnapshot(data);
  let head: Extract<SnapshotMessage, { kind: 'head' }> | undefined;
  let otherFormat = false;
  let ended = false;
  const entries = new Map<string, IndexEntry>();
  const index: AsPlainObject['index'] = [];
  const maps: Record<'documentIds' | 'fieldLength' | 'storedFields', Record<string, unknown>> = {
    documentIds: {},
    fieldLength: {},
    storedFields: {},
  };
  const take = (piece: SnapshotPiece): void => {
    if (piece.part === 'entries') for (const [slug, entry] of piece.items) entries.set(slug, entry);
    else if (piece.part === 'index') for (const term of piece.items) index.push(term);
    else for (const [key, value] of piece.items) maps[piece.part][key] = value;
  };
  // A copy: the thread takes the bytes over, and the caller's array stays usable.
  const bytes = data.slice();
  await runThread<SnapshotMessage>(DECODE_THREAD, bytes, [bytes.buffer], {
    ...run,
    async onMessage(message, reply) {
      const received = message as SnapshotMessage | SnapshotPiece;
      if ('part' in received) take(received);
      else if (received.kind === 'head') head = received;
      else {
        otherFormat = received.kind === 'other-format';
        ended = received.kind === 'end';
        return;
      }
      // The next piece is asked for on the next turn, so requests waiting meanwhile go first.
      await new Promise((resolve) => setImmediate(resolve));
      reply('next');
    },
  });
  if (otherFormat) return undefined;
  // Never a part of an index: a thread that ended early fails the load, and the old index stays.
  if (head === undefined || !ended) throw new Error('the snapshot decode thread ended before the whole index');
  const terms = { ...head.terms, index, ...maps } as AsPlainObject;
  return { index: await loadStoryIndexAsync(terms, entries), watermark: head.watermark };
}
