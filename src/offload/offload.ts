// CPU-heavy pure work (parsing and rendering story markdown) run off the event loop, in one
// worker thread, each task under a time budget: a request that parses or renders a large story
// never holds up the requests around it, and a task over its budget is stopped (the worker is
// terminated and a fresh one takes the next task) instead of running on. The worker's heap is
// capped too (resourceLimits), so a task that would exhaust memory usually ends that task, not the
// server; Node enforces the cap best-effort (one array grown past it can abort the whole process),
// so what keeps a task small is the markdown cost pre-scan in front of it, not the cap.
//
// Tasks run one at a time, in order. Where the task modules are not files on disk (a bundle, as
// on Lambda, where each instance serves one request at a time anyway), tasks run inline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { errorFromWorker, type WorkerAnswer } from './worker-messages.ts';

export interface OffloadTask<I, O> {
  /** The module exporting `name`; the worker imports it. */
  module: URL;
  name: string;
  /**
   * The same function, for running inline; it may import its module first, so a bundle that runs
   * tasks inline (Lambda) loads a task's code only when the task first runs.
   */
  run(input: I): O | Promise<O>;
  budgetMs: number;
}

/** The task ran past its budget and was stopped. */
export class OffloadBudgetExceeded extends Error {
  readonly task: string;
  readonly budgetMs: number;

  constructor(task: string, budgetMs: number) {
    super(`${task} ran past its ${budgetMs} ms budget and was stopped`);
    this.name = 'OffloadBudgetExceeded';
    this.task = task;
    this.budgetMs = budgetMs;
  }
}

/** The worker died running the task (out of memory, or an uncaught failure). */
export class OffloadFailed extends Error {
  readonly task: string;

  constructor(task: string, cause: unknown) {
    super(`${task} failed in its worker: ${String(cause)}`, { cause });
    this.name = 'OffloadFailed';
    this.task = task;
  }
}

export interface Offload {
  run<I, O>(task: OffloadTask<I, O>, input: I): Promise<O>;
  /** Stops the worker (tasks still queued are refused). */
  close(): Promise<void>;
}

export interface OffloadOptions {
  /** The worker's heap caps (default: 512 MB old generation). */
  resourceLimits?: ResourceLimits;
}

const WORKER = new URL('./offload-worker.ts', import.meta.url);
const DEFAULT_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 512 };

interface Job {
  id: number;
  task: OffloadTask<unknown, unknown>;
  input: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const onDisk = new Map<string, boolean>();
function isFile(url: URL): boolean {
  let known = onDisk.get(url.href);
  if (known === undefined) {
    known = url.protocol === 'file:' && existsSync(fileURLToPath(url));
    onDisk.set(url.href, known);
  }
  return known;
}

export function createOffload(options: OffloadOptions = {}): Offload {
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let running: { job: Job; timer: NodeJS.Timeout } | undefined;
  let nextId = 1;
  let closed = false;

  const finish = (settle: (job: Job) => void): void => {
    if (running === undefined) return;
    const { job, timer } = running;
    clearTimeout(timer);
    running = undefined;
    settle(job);
    startNext();
  };

  const discard = (): void => {
    const dead = worker;
    worker = undefined;
    if (dead !== undefined) void dead.terminate();
  };

  const spawn = (): Worker => {
    const spawned = new Worker(WORKER, { resourceLimits: options.resourceLimits ?? DEFAULT_LIMITS });
    spawned.on('message', (answer: WorkerAnswer) => {
      if (running?.job.id !== answer.id) return;
      if (answer.ok) finish((job) => job.resolve(answer.value));
      else finish((job) => job.reject(errorFromWorker(answer.error)));
    });
    const died = (cause: unknown): void => {
      if (worker !== spawned) return;
      worker = undefined;
      finish((job) => job.reject(new OffloadFailed(job.task.name, cause)));
    };
    spawned.on('error', died);
    spawned.on('exit', (code) => died(`the worker exited with code ${code}`));
    // An idle worker must not keep the process alive; a running task's budget timer does. After
    // the listeners: adding a 'message' listener refs the worker's port again.
    spawned.unref();
    return spawned;
  };

  const startNext = (): void => {
    if (running !== undefined) return;
    const job = queue.shift();
    if (job === undefined) return;
    worker ??= spawn();
    const timer = setTimeout(() => {
      discard();
      finish((stopped) => stopped.reject(new OffloadBudgetExceeded(stopped.task.name, stopped.task.budgetMs)));
    }, job.task.budgetMs);
    running = { job, timer };
    worker.postMessage({ id: job.id, module: job.task.module.href, name: job.task.name, input: job.input });
  };

  return {
    run<I, O>(task: OffloadTask<I, O>, input: I): Promise<O> {
      if (closed) return Promise.reject(new Error('the offload worker is closed'));
      if (!isFile(WORKER) || !isFile(task.module)) return new Promise<O>((resolve) => resolve(task.run(input)));
      return new Promise<O>((resolve, reject) => {
        queue.push({
          id: nextId++,
          task: task as OffloadTask<unknown, unknown>,
          input,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        startNext();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the offload worker is closed'));
      const dead = worker;
      worker = undefined;
      if (running !== undefined) finish((job) => job.reject(new Error('the offload worker is closed')));
      if (dead !== undefined) await dead.terminate();
    },
  };
}

let shared: Offload | undefined;

/** The process's one offload worker, started on first use. */
export function sharedOffload(): Offload {
  shared ??= createOffload();
  return shared;
}
