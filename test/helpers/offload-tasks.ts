// Real tasks for the offload tests, run in the offload worker: they burn real CPU and memory.
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { validationFailed } from '../../src/domain/errors.ts';
import type { OffloadTask } from '../../src/offload/offload.ts';

export function whichThread(): number {
  return threadId;
}

/** The niceness of the thread the task runs on (Linux: a thread's own). */
export function threadNiceness(): number {
  return getPriority(0);
}

/** Keeps the CPU busy for `ms`, as a slow parse would. */
export function spin(ms: number): number {
  const until = performance.now() + ms;
  let turns = 0;
  while (performance.now() < until) turns += 1;
  return turns;
}

export function refuse(field: string): never {
  throw validationFailed('refused in the worker', { [field]: 'fix it' });
}

/** Holds ever more memory until the worker's heap cap stops it. */
export function exhaustMemory(): number {
  const held: string[][] = [];
  for (;;) held.push(Array.from({ length: 100_000 }, (_, index) => `${index}-${held.length}`));
}

const MODULE = new URL(import.meta.url);
const task = <I, O>(name: string, run: (input: I) => O, budgetMs = 10_000): OffloadTask<I, O> => ({ module: MODULE, name, run, budgetMs });

export const WHICH_THREAD = task<void, number>('whichThread', whichThread);
export const NICENESS = task<void, number>('threadNiceness', threadNiceness);
export const SPIN = (budgetMs: number) => task<number, number>('spin', spin, budgetMs);
export const REFUSE = task<string, never>('refuse', refuse);
export const EXHAUST_MEMORY = task<void, number>('exhaustMemory', exhaustMemory, 60_000);
