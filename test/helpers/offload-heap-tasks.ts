// Real tasks for the offload worker's replacements (test/unit/offload/offload.test.ts): one
// grows the worker's heap and keeps it, one runs past its budget, one exhausts the capped heap,
// and the module says on a BroadcastChannel which thread
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

/** Keeps the CPU busy for `ms`: past a short budget, the worker is stopped. */
export function spinHere(ms: number): number {
  const until = performance.now() + ms;
  let turns = 0;
  while (performance.now() < until) turns += 1;
  return turns;
}

/** Holds ever more memory until the worker's heap cap ends the worker. */
export function exhaustHere(): number {
  const held: string[][] = [];
  for (;;) held.push(Array.from({ length: 100_000 }, (_, index) => `${index}-${held.length}`));
}

const MODULE = new URL(import.meta.url);

export const KEEP_MEMORY: OffloadTask<number, number> = { module: MODULE, name: 'keepMemory', run: keepMemory, budgetMs: 30_000 };
export const HEAP_THREAD: OffloadTask<void, number> = { module: MODULE, name: 'heapThread', run: heapThread, budgetMs: 10_000 };
export const SPIN_PAST_BUDGET: OffloadTask<number, number> = { module: MODULE, name: 'spinHere', run: spinHere, budgetMs: 500 };
export const EXHAUST_HEAP: OffloadTask<void, number> = { module: MODULE, name: 'exhaustHere', run: exhaustHere, budgetMs: 60_000 };
