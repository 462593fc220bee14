// Real tasks for the offload worker's recycling (test/unit/offload/offload.test.ts): one
// grows the worker's heap and keeps it, and the module says on a BroadcastChannel which thread
// imported it, so a test sees a replacement worker import it before any task asks.
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { OffloadTask } from '../../src/offload/offload.ts';

export const IMPORTS_CHANNEL = 'lorebook-test-offload-imports';

const announce = new BroadcastChannel(IMPORTS_CHANNEL);
announce.postMessage(threadId);
announce.close();

const kept: string[][] = [];

/** Keeps about `megabytes` of strings on the worker's heap, for good; answers its thread. */
export function keepMemory(megabytes: number): number {
  for (let index = 0; index < megabytes * 10; index += 1) kept.push(Array.from({ length: 4_000 }, (_, item) => `${item}-${index}`));
  return threadId;
}

export function heapThread(): number {
  return threadId;
}

const MODULE = new URL(import.meta.url);

export const KEEP_MEMORY: OffloadTask<number, number> = { module: MODULE, name: 'keepMemory', run: keepMemory, budgetMs: 30_000 };
export const HEAP_THREAD: OffloadTask<void, number> = { module: MODULE, name: 'heapThread', run: heapThread, budgetMs: 10_000 };
