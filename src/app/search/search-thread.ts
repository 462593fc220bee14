// A worker thread of its own for one piece of search's background work (docs/design.md#search): a
// snapshot's decode for an instance. One thread per run, ended when the run ends, so its heap (a
// whole index) goes with it and a killed run leaves nothing behind. Where the module is not a file
// on disk (a bundle, as on Lambda) callers run the work inline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Transferable, Worker } from 'node:worker_threads';

/** True when `module` can be started as a worker thread (a file on disk, not part of a bundle). */
export function threadAvailable(module: URL): boolean {
  return module.protocol === 'file:' && existsSync(fileURLToPath(module));
}

export interface ThreadRun {
  /** Every message the thread posts, in order; awaited before the next is taken. */
  onMessage?(message: unknown, reply: (message: unknown) => void): void | Promise<void>;
  /** The thread once started: where a test kills it. */
  onStart?(worker: Worker): void;
}

/**
 * Runs `module` with `data`; resolves with its last message when it exits normally after posting
 * one, rejects when it throws, dies, or ends with nothing posted (a terminated thread exits with 0).
 */
export function runThread<T>(module: URL, data: unknown, transfer: readonly Transferable[], run: ThreadRun = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(module, { workerData: data, transferList: [...transfer] });
    let last: unknown;
    let answered = false;
    let failure: unknown;
    let handling = Promise.resolve();
    worker.on('message', (message: unknown) => {
      last = message;
      answered = true;
      handling = handling
        .then(async () => {
          if (failure === undefined) await run.onMessage?.(message, (answer) => worker.postMessage(answer));
        })
        .catch((error: unknown) => {
          failure ??= error;
          void worker.terminate();
        });
    });
    worker.on('error', (error) => (failure ??= error));
    worker.on('exit', (code) => {
      void handling.then(() => {
        if (failure !== undefined) reject(failure);
        else if (code !== 0 || !answered) reject(new Error(`the search thread ended (code ${code}) before its answer`));
        else resolve(last as T);
      });
    });
    run.onStart?.(worker);
  });
}
