// CPU-heavy pure work (parsing and rendering story markdown) run off the event loop, in worker
// threads (one per core by default, and at least two), each task under a time budget: a request
// that parses or renders a large story never holds up the requests around it, and a task over its
// budget is stopped (the worker is terminated and a fresh one, importing the task modules at once,
// takes the next task) instead of running on. Every worker imports a task module as soon as any
// runs it, and a spare worker starts, warm, when a heavy job or a second job at once leaves none
// idle. Heavy jobs run on the workers but the first, whose threads lower themselves to
// HEAVY_LANE_NICENESS (thread-priority.ts): on a busy machine the thread serving requests and the
// first worker, where ordinary calls' jobs run whenever it is free, are scheduled before a heavy
// job's seconds of CPU. The worker's heap is capped too (resourceLimits), so a task that would
// exhaust memory usually ends that task, not the server; Node enforces the cap best-effort (one
// array grown past it can abort the whole process), so what keeps a task small is the markdown cost
// pre-scan in front of it, not the cap. A worker whose heap a task grew past a bound (the worst
// texts the limits accept stay under it; a shape they do not know may not) is replaced after that
// task, by a fresh worker that imports the same task modules at once: V8 keeps a heap it has grown,
// so without it one heavy task would hold that memory for good.
//
// Tasks are shared among callers fairly (fair-queue.ts, docs/design.md#fair-cpu): a caller runs at
// most its share of the workers at once, and a task's budget counts from when it was queued. Where
// the task modules are not files on disk (a bundle, as on Lambda, where each instance serves one
// request at a time anyway), tasks run inline.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { CpuWindows } from './cpu-windows.ts';
import { createFairQueue, type FairShare } from './fair-queue.ts';
import { createHeavyGate, type HeavyGate, heavySlots } from './heavy-gate.ts';
import { HEAVY_LANE_NICENESS } from './thread-priority.ts';
import { errorFromWorker, type WorkerMessage, type WorkerPreload, type WorkerSetup, type WorkerTask } from './worker-messages.ts';

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
  /** Whether this input makes a heavy job (fair-queue.ts): it never takes the last free worker. Default: light. */
  heavy?: (input: I) => boolean;
}

/**
 * Past this many characters of markdown, a parse, scan or render is a heavy job (fair-queue.ts):
 * ordinary stories are 1-5 KB and take milliseconds; the worst 64 KiB within the cost limits take
 * seconds, and an 8 KiB one at most about half a second.
 */
export const HEAVY_TEXT_CHARS = 8 * 1024;

export const heavyText = (...texts: readonly unknown[]): boolean =>
  texts.reduce<number>((sum, text) => sum + (typeof text === 'string' ? text.length : 0), 0) > HEAVY_TEXT_CHARS;

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
  /**
   * Runs the task in `caller`'s share of the workers (fair-queue.ts): an account id, else the
   * client address, as the rate limiter keys them; none for the process's own work.
   */
  run<I, O>(task: OffloadTask<I, O>, input: I, caller?: string): Promise<O>;
  /** The heavy jobs' places (all workers but one), which the image re-encoder shares (cpu-slots.ts). */
  readonly heavy: HeavyGate;
  /** Stops the workers (tasks still queued are refused). */
  close(): Promise<void>;
}

export interface OffloadOptions {
  /** Each worker's heap caps (default: DEFAULT_LIMITS). */
  resourceLimits?: ResourceLimits;
  /** A worker whose heap is larger than this after a task is replaced (default: DEFAULT_RECYCLE_HEAP_BYTES). */
  recycleHeapBytes?: number;
  /** How the workers are shared (default: DEFAULT_OFFLOAD_SHARE, one worker per core). */
  share?: FairShare;
  /** What each caller may spend of the workers a minute (default: no such limit). */
  costs?: CpuWindows;
}

/**
 * The workers: one per core the process may use (measured: BENCHMARKS.md §11), and at least two.
 * Heavy jobs never take the last worker, but with only one they must: a heavy scan then held it
 * for seconds, and every render that came meanwhile waited it out. With two on one core, a render
 * shares the core with the scan instead.
 */
export const defaultWorkers = (): number => Math.max(2, availableParallelism());

export const DEFAULT_OFFLOAD_SHARE: Omit<FairShare, 'slots'> = {
  perCaller: 1,
  perCallerWaiting: 32,
  maxWaiting: 64,
  maxWaitMs: 10_000,
};

const WORKER = new URL('./offload-worker.ts', import.meta.url);
/**
 * 256 MB of old generation: the worst texts the cost limits accept (docs/markdown-cost.md) scan
 * within ~100 MB; a task past the cap fails alone, refused as validation_failed. 8 MB of young
 * generation: parsing allocates fast and briefly, and a smaller nursery is collected sooner, which
 * took 20-50 MB off a worst scan's peak. It costs CPU, on V8's platform threads more than the
 * worker's: 32 MB would take 0.57x the process's CPU for those texts, at 1.08x the peak RSS
 * (`npm run bench:worker-heap`). Kept for the memory: beside the fairness bench's attacks it took
 * the server's peak RSS past twice its idle (BENCHMARKS.md §11).
 */
export const DEFAULT_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 };
/** Past what ordinary stories leave behind (tens of MB), well under what the heaviest do. */
export const DEFAULT_RECYCLE_HEAP_BYTES = 128 * 1024 * 1024;

interface Job {
  id: number;
  task: OffloadTask<unknown, unknown>;
  input: unknown;
  /** A heavy job (fair-queue.ts): it holds its worker long enough for a spare to be worth starting. */
  heavy: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** One worker thread and the job it runs; the worker is spawned on first use, as a spare, and after a stop. */
interface Lane {
  /** Its workers' niceness: the first lane's at the process's, the others' at HEAVY_LANE_NICENESS. */
  niceness: number;
  worker: Worker | undefined;
  running: { job: Job; timer: NodeJS.Timeout } | undefined;
  /** The worker is still importing task modules: an idle lane with a warm worker is chosen first. */
  warming: boolean;
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
  const share = options.share ?? { slots: defaultWorkers(), ...DEFAULT_OFFLOAD_SHARE };
  const heavy = createHeavyGate(heavySlots(share.slots));
  const turns = createFairQueue(share, { costs: options.costs, heavy });
  const lanes: Lane[] = Array.from({ length: share.slots }, (_, index) => ({
    niceness: index === 0 ? 0 : HEAVY_LANE_NICENESS,
    worker: undefined,
    running: undefined,
    warming: false,
  }));
  /** The task modules any worker has run: every worker imports each one, a fresh worker all of them before its first task. */
  const modules = new Set<string>();
  const recycleAt = options.recycleHeapBytes ?? DEFAULT_RECYCLE_HEAP_BYTES;
  let nextId = 1;
  let closed = false;

  const finish = (lane: Lane, settle: (job: Job) => void): void => {
    if (lane.running === undefined) return;
    const { job, timer } = lane.running;
    clearTimeout(timer);
    lane.running = undefined;
    settle(job);
  };

  const discard = (lane: Lane): void => {
    const dead = lane.worker;
    lane.worker = undefined;
    if (dead !== undefined) void dead.terminate();
  };

  const spawn = (lane: Lane): Worker => {
    const spawned = new Worker(WORKER, {
      resourceLimits: options.resourceLimits ?? DEFAULT_LIMITS,
      workerData: { niceness: lane.niceness } satisfies WorkerSetup,
    });
    spawned.on('message', (answer: WorkerMessage) => {
      if ('preloaded' in answer) {
        if (lane.worker === spawned) lane.warming = false;
        return;
      }
      if (lane.running?.job.id !== answer.id) return;
      if (answer.heapBytes > recycleAt) replace(lane);
      if (answer.ok) finish(lane, (job) => job.resolve(answer.value));
      else finish(lane, (job) => job.reject(errorFromWorker(answer.error)));
    });
    const died = (cause: unknown): void => {
      if (lane.worker !== spawned) return;
      lane.worker = undefined;
      // Replaced at once, warm, only when a task was running: a worker that dies at start is not respawned in a loop.
      const wasRunning = lane.running !== undefined;
      finish(lane, (job) => job.reject(new OffloadFailed(job.task.name, cause)));
      if (wasRunning && !closed) replace(lane);
    };
    spawned.on('error', died);
    spawned.on('exit', (code) => died(`the worker exited with code ${code}`));
    // An idle worker must not keep the process alive; a running task's budget timer does. After
    // the listeners: adding a 'message' listener refs the worker's port again.
    spawned.unref();
    return spawned;
  };

  const preload = (lane: Lane, which: string[]): void => {
    lane.warming = true;
    lane.worker?.postMessage({ preload: which } satisfies WorkerPreload);
  };

  /** A fresh worker (in place of one stopped, dead or grown past the heap bound, or a lane's first), importing every task module before its first task. */
  const replace = (lane: Lane): void => {
    discard(lane);
    lane.worker = spawn(lane);
    preload(lane, [...modules]);
  };

  /** A task module run for the first time is imported at once by every other worker already started. */
  const spread = (module: string, to: Lane): void => {
    if (modules.has(module)) return;
    modules.add(module);
    for (const lane of lanes) if (lane !== to && lane.worker !== undefined) preload(lane, [module]);
  };

  /**
   * When a heavy job, or a second job at once, leaves no started worker idle, a lane with none
   * starts one, importing every task module: the next call takes a warm worker, not a cold start
   * (~0.5 s: BENCHMARKS.md §11). A process whose light calls come one at a time keeps one worker.
   */
  const keepSpare = (job: Job): void => {
    const running = lanes.filter((lane) => lane.running !== undefined).length;
    if (!job.heavy && running < 2) return;
    if (lanes.some((lane) => lane.worker !== undefined && lane.running === undefined)) return;
    const unstarted = lanes.find((lane) => lane.worker === undefined);
    if (unstarted !== undefined) replace(unstarted);
  };

  /** Runs the job on an idle lane: the fair queue starts no more jobs than there are lanes. */
  const dispatch = (job: Job, remainingMs: number): void => {
    if (closed) {
      job.reject(new Error('the offload worker is closed'));
      return;
    }
    const idle = lanes.filter((candidate) => candidate.running === undefined);
    // A heavy job on a lane of lowered priority, even one whose worker is still to start (its
    // seconds outlast a start); on the first lane only when no other is free.
    const lowered = idle.filter((candidate) => candidate.niceness > 0);
    const eligible = job.heavy && lowered.length > 0 ? lowered : idle;
    // A started, warm worker first; then one still importing; a lane with none last.
    const lane = (eligible.find((candidate) => candidate.worker !== undefined && !candidate.warming) ??
      eligible.find((candidate) => candidate.worker !== undefined) ??
      eligible[0]) as Lane;
    lane.worker ??= spawn(lane);
    spread(job.task.module.href, lane);
    const timer = setTimeout(() => {
      // The stopped worker's replacement imports the task modules now, not inside the next task's budget.
      replace(lane);
      finish(lane, (stopped) => stopped.reject(new OffloadBudgetExceeded(stopped.task.name, stopped.task.budgetMs)));
    }, remainingMs);
    lane.running = { job, timer };
    keepSpare(job);
    lane.worker.postMessage({ id: job.id, module: job.task.module.href, name: job.task.name, input: job.input } satisfies WorkerTask);
  };

  return {
    heavy,
    run<I, O>(task: OffloadTask<I, O>, input: I, caller?: string): Promise<O> {
      if (closed) return Promise.reject(new Error('the offload worker is closed'));
      if (!isFile(WORKER) || !isFile(task.module)) return new Promise<O>((resolve) => resolve(task.run(input)));
      const heavy = task.heavy?.(input) ?? false;
      return turns.run(
        caller,
        task.budgetMs,
        (remainingMs) =>
          new Promise<O>((resolve, reject) =>
            dispatch(
              {
                id: nextId++,
                task: task as OffloadTask<unknown, unknown>,
                input,
                heavy,
                resolve: resolve as (value: unknown) => void,
                reject,
              },
              remainingMs,
            ),
          ),
        { heavy },
      );
    },
    async close() {
      closed = true;
      turns.clear(new Error('the offload worker is closed'));
      const dead = lanes.map((lane) => lane.worker).filter((worker) => worker !== undefined);
      for (const lane of lanes) {
        lane.worker = undefined;
        finish(lane, (job) => job.reject(new Error('the offload worker is closed')));
      }
      await Promise.all(dead.map((worker) => worker.terminate()));
    },
  };
}

let shared: Offload | undefined;

/** The process's offload workers for work done without an AppContext (the announcer, the commands), started on first use. */
export function sharedOffload(): Offload {
  shared ??= createOffload();
  return shared;
}
