// Real tasks for the offload worker's replacements and compaction (test/unit/offload/offload.test.ts):
// one grows the worker's heap and keeps it, one grows it with garbage it drops, and the spin and memory-exhausting tasks of
// offload-tasks.ts are run through this module too, which says on a BroadcastChannel which
// thread imported it, so a test sees a replacement worker import it before any task asks.
import { getHeapStatistics } from 'node:v8';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { OffloadTask } from '../../src/offload/offload.ts';
import { exhaustMemory, spin } from './offload-tasks.ts';

/** The worker calls a task by its module's export: these are offload-tasks.ts's, exported from here. */
export { exhaustMemory, spin };

export const IMPORTS_CHANNEL = 'lorebook-test-offload-imports';

const announce = new BroadcastChannel(IMPORTS_CHANNEL);
announce.postMessage(threadId);
announce.close();

const kept: string[][] = [];

/** About `megabytes` of strings on the worker's heap. */
const strings = (megabytes: number): string[][] =>
  Array.from({ length: megabytes * 10 }, (_, index) => Array.from({ length: 4_000 }, (_, item) => `${item}-${index}`));

/** Keeps about `megabytes` of strings on the worker's heap, for good; answers its thread. */
export function keepMemory(megabytes: number): number {
  kept.push(...strings(megabytes));
  return threadId;
}

export function heapThread(): number {
  return threadId;
}

/** Grows the worker's heap with about `megabytes` of strings, then drops them, as a heavy scan does; answers the heap's committed size while they are held. */
export function leaveGarbage(megabytes: number): number {
  return strings(megabytes).length > 0 ? getHeapStatistics().total_heap_size : 0;
}

export function heapSize(): number {
  return getHeapStatistics().total_heap_size;
}

const MODULE = new URL(import.meta.url);

export const KEEP_MEMORY: OffloadTask<number, number> = { module: MODULE, name: 'keepMemory', run: keepMemory, budgetMs: 30_000 };
export const HEAP_THREAD: OffloadTask<void, number> = { module: MODULE, name: 'heapThread', run: heapThread, budgetMs: 10_000 };
export const LEAVE_GARBAGE: OffloadTask<number, number> = { module: MODULE, name: 'leaveGarbage', run: leaveGarbage, budgetMs: 30_000 };
export const HEAP_SIZE: OffloadTask<void, number> = { module: MODULE, name: 'heapSize', run: heapSize, budgetMs: 10_000 };
export const SPIN_PAST_BUDGET: OffloadTask<number, number> = { module: MODULE, name: 'spin', run: spin, budgetMs: 500 };
export const EXHAUST_HEAP: OffloadTask<void, number> = { module: MODULE, name: 'exhaustMemory', run: exhaustMemory, budgetMs: 60_000 };
