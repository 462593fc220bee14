// The offload worker thread: imports a task's module (once) and answers each task with its
// result or its error and the heap it is left with (offload.ts); a preload message imports the
// modules of the worker it replaces, before any task asks for them. A task that left the heap past
// COMPACT_PAST_BYTES (a heavy scan, parse or render grows it to 32–66 MB for ~15 MB live) is
// followed by a compacting collection, after its answer has gone: V8 would keep that heap until
// its memory reducer ran, and each worker held ~50 MB more after the fairness bench's attacks than
// before them (BENCHMARKS.md §11). The collection takes ~25 ms; a task sent meanwhile waits it out.
// A worker of a heavy lane lowers its thread's priority before its first task (offload.ts).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { compactHeap, heapBytes } from './compact-heap.ts';
import { lowerThisThreadsPriority } from './thread-priority.ts';
import {
  errorForMain,
  type WorkerAnswer,
  type WorkerMessage,
  type WorkerPreload,
  type WorkerSetup,
  type WorkerTask,
} from './worker-messages.ts';

// A heavy lane's worker (offload.ts): lowered before its first task, so the threads it starts keep it too.
const setup = workerData as WorkerSetup | null;
if (!isMainThread && setup !== null && setup.niceness > 0) lowerThisThreadsPriority(setup.niceness);

const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(module: string): Promise<Record<string, unknown>> {
  let loading = modules.get(module);
  if (loading === undefined) {
    loading = import(module) as Promise<Record<string, unknown>>;
    // A module that fails to load fails the task that needs it, not the preload.
    loading.catch(() => undefined);
    modules.set(module, loading);
  }
  return loading;
}

async function run(task: WorkerTask): Promise<unknown> {
  const exported = (await load(task.module))[task.name];
  if (typeof exported !== 'function') throw new Error(`${task.module} exports no function ${task.name}`);
  return (exported as (input: unknown) => unknown)(task.input);
}

/** Past this heap after a task, the worker compacts it: a fresh worker with every task module imported holds ~15 MB. */
export const COMPACT_PAST_BYTES = 32 * 1024 * 1024;

const compactIfGrown = (): void => {
  if (heapBytes() > COMPACT_PAST_BYTES) compactHeap();
};

parentPort?.on('message', (message: WorkerTask | WorkerPreload) => {
  if ('preload' in message) {
    void Promise.allSettled(message.preload.map(load)).then(() => parentPort?.postMessage({ preloaded: true } satisfies WorkerMessage));
    return;
  }
  run(message)
    .then(
      (value) => parentPort?.postMessage({ id: message.id, ok: true, value, heapBytes: heapBytes() } satisfies WorkerAnswer),
      (error: unknown) =>
        parentPort?.postMessage({ id: message.id, ok: false, error: errorForMain(error), heapBytes: heapBytes() } satisfies WorkerAnswer),
    )
    .then(compactIfGrown);
});
