// The offload worker thread: imports a task's module (once) and answers each task with its
// result or its error (offload.ts).
import { parentPort } from 'node:worker_threads';
import { errorForMain, type WorkerAnswer, type WorkerTask } from './worker-messages.ts';

const modules = new Map<string, Promise<Record<string, unknown>>>();

async function run(task: WorkerTask): Promise<unknown> {
  let loading = modules.get(task.module);
  if (loading === undefined) {
    loading = import(task.module) as Promise<Record<string, unknown>>;
    modules.set(task.module, loading);
  }
  const exported = (await loading)[task.name];
  if (typeof exported !== 'function') throw new Error(`${task.module} exports no function ${task.name}`);
  return (exported as (input: unknown) => unknown)(task.input);
}

parentPort?.on('message', (task: WorkerTask) => {
  run(task).then(
    (value) => parentPort?.postMessage({ id: task.id, ok: true, value } satisfies WorkerAnswer),
    (error: unknown) => parentPort?.postMessage({ id: task.id, ok: false, error: errorForMain(error) } satisfies WorkerAnswer),
  );
});
