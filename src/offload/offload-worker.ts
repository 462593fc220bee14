// The offload worker thread: imports a task's module (once) and answers each task with its
// result or its error and the heap it is left with (offload.ts); a preload message imports the
// modules of the worker it replaces, before any task asks for them.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { errorForMain, type WorkerAnswer, type WorkerMessage, type WorkerPreload, type WorkerTask } from './worker-messages.ts';

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

const heapBytes = (): number => getHeapStatistics().total_heap_size;

parentPort?.on('message', (message: WorkerTask | WorkerPreload) => {
  if ('preload' in message) {
    void Promise.allSettled(message.preload.map(load)).then(() => parentPort?.postMessage({ preloaded: true } satisfies WorkerMessage));
    return;
  }
  run(message).then(
    (value) => parentPort?.postMessage({ id: message.id, ok: true, value, heapBytes: heapBytes() } satisfies WorkerAnswer),
    (error: unknown) =>
      parentPort?.postMessage({ id: message.id, ok: false, error: errorForMain(error), heapBytes: heapBytes() } satisfies WorkerAnswer),
  );
});
