// An instance's load of a snapshot, measured in this process: the longest event-loop stall while it
// loads, and its wall time, for the candidates of issue 26 (snapshot-stall.ts reports them).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { decodeSnapshot, type SnapshotObject } from '../../src/app/search/search-snapshot-codec.ts';
import { loadSnapshot } from '../../src/app/search/snapshot-load.ts';
import type { IndexSnapshotBody } from '../../src/app/search/story-index.ts';
import { loadStoryIndex } from '../../src/app/search/story-index.ts';

export interface LoadCandidate {
  name: string;
  /** The longest the event loop was held, and the load's wall time, ms. */
  stallMs: number;
  wallMs: number;
}

async function measured(name: string, load: () => Promise<unknown>): Promise<LoadCandidate> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  // A timer keeps the loop turning, so a stall shows as a late tick.
  const ticking = setInterval(() => {}, 5);
  delay.enable();
  const started = performance.now();
  await load();
  const wallMs = performance.now() - started;
  // A stall at the load's very end is recorded at the timer's next (late) tick.
  await new Promise((resolve) => setTimeout(resolve, 50));
  delay.disable();
  clearInterval(ticking);
  return { name, stallMs: delay.max / 1e6, wallMs };
}

/** A thread parses the object and posts it whole; the main thread takes it in and runs loadJS. */
function parsedInThreadWhole(data: Uint8Array): Promise<unknown> {
  const source = `const { parentPort, workerData } = require('node:worker_threads');
const { gunzipSync } = require('node:zlib');
parentPort.postMessage(JSON.parse(gunzipSync(workerData).toString('utf8')));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: data });
    worker.once('message', (object: SnapshotObject) => {
      resolve(loadStoryIndex(object.index as IndexSnapshotBody));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export async function measureLoadCandidates(data: Uint8Array): Promise<LoadCandidate[]> {
  const candidates: LoadCandidate[] = [];
  candidates.push(
    await measured('before: inline (gunzip on the pool, JSON.parse and loadJS on the main thread)', () => decodeSnapshot(data)),
  );
  candidates.push(await measured('a thread parses and posts the object whole; loadJS on the main thread', () => parsedInThreadWhole(data)));
  candidates.push(await measured('built: a thread parses and hands over pieces; loadJSAsync on the main thread', () => loadSnapshot(data)));
  return candidates;
}
