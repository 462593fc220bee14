// A few slots (the offload workers, the image re-encoder) shared fairly among callers
// (docs/design.md#fair-cpu). A caller is an account, or an address without a token (the rate limiter's subjects); each
// may run at most `perCaller` jobs at once and keep `perCallerWaiting` more waiting, and free
// slots go to the waiting callers in turn, so one caller's flood of heavy jobs never holds more
// than its share while another caller's job waits. Waiting is bounded three ways, each refused at
// once as `rate_limited` with retry_after_ms (nothing has run, so nothing was written): the
// caller's share is full, the whole queue is full, or the job waited `maxWaitMs` without a slot.
// A queue of questions (reads a caller may walk away from) may bound the wait for an answer too.
// A job whose caller's request ends (its connection closed) while it waits is withdrawn, unrun.
// Time spent waiting counts against the job's budget: the job starts with what is left of it.
// A caller's CPU minute is checked when it queues a job and again when the job's turn comes, so
// what it queued while the minute had room cannot run it past the minute.
// Jobs without a caller are the process's own (the announcer, the commands): they queue in turn
// like a caller but are never refused for a share, a full queue or the wait bound (only their
// budget bounds their wait). A heavy job (a large input: seconds of CPU where an ordinary story
// takes milliseconds) never takes the last free slot where there are two or more: strangers'
// heavy scans fill at most the other slots, so an ordinary call waits behind light jobs only.
// Queues may share that bound (heavy-gate.ts): the re-encoder's heavy jobs count against the
// offload workers'. A caller's jobs keep their order: its light job waits behind its own heavy one.
import { LorebookError } from '../domain/errors.ts';
import type { CpuWindows } from './cpu-windows.ts';
import { createHeavyGate, type HeavyGate, heavySlots } from './heavy-gate.ts';

export interface FairShare {
  /** Jobs running at once, all callers together (the workers). */
  slots: number;
  /** Jobs one caller may run at once. */
  perCaller: number;
  /** Jobs one caller may keep waiting besides those. */
  perCallerWaiting: number;
  /** Jobs waiting, all callers together. */
  maxWaiting: number;
  /** The longest a job waits for a slot (at most its budget) before it is refused for load. */
  maxWaitMs: number;
  /**
   * For queues of questions (reads): the longest a caller waits for its job's answer once the job
   * started (default: no bound, its budget bounds it). Past it the caller is refused for load
   * (`answer_wait`) while the job keeps its slot until it ends, so nothing queues up behind a
   * job that runs long.
   */
  answerWaitMs?: number;
}

export interface FairQueue {
  /**
   * Runs `start` in one of `caller`'s slots once its turn comes; `start` receives what is left of
   * `budgetMs` after the wait. Refused (`rate_limited`, nothing run) when the caller's share, its
   * CPU minute or the queue is full, or when no slot came within the wait bound.
   */
  run<T>(caller: string | undefined, budgetMs: number, start: (remainingMs: number) => Promise<T>, job?: JobOptions): Promise<T>;
  /** Refuses every waiting job with `error`. */
  clear(error: Error): void;
}

export interface JobOptions {
  /** The job may not take the last free slot (heavySlots), nor a place another queue's heavy jobs hold (heavy-gate.ts). */
  heavy?: boolean;
  /**
   * The caller's request: a job still waiting when it aborts (the connection closed) is withdrawn
   * and never runs, so a caller who cuts and re-sends does not keep dead jobs queued.
   */
  signal?: AbortSignal;
}

/** The key of the process's own jobs (no caller), never refused for load. */
const PROCESS = '';
/** What a job is taken to cost before any has run: what retry_after_ms is estimated from. */
const FIRST_ESTIMATE_MS = 1_000;

export interface FairQueueOptions {
  /** What each caller may spend of the slots a minute (default: no such limit). */
  costs?: CpuWindows;
  /** What a refusal for load calls the slots (default: the workers). */
  names?: SlotNames;
  /** The heavy jobs' places, shared with other queues (default: this queue's own, heavySlots(share.slots)). */
  heavy?: HeavyGate;
  now?: () => number;
}

interface Waiting {
  caller: string;
  heavy: boolean;
  timer: NodeJS.Timeout;
  begin(): void;
  refuse(error: Error): void;
}

export function createFairQueue(share: FairShare, options: FairQueueOptions = {}): FairQueue {
  const {
    costs,
    heavy: gate = createHeavyGate(heavySlots(share.slots)),
    now = performance.now.bind(performance),
    names = WORKERS,
  } = options;
  const busy = (reason: keyof SlotNames, retryAfterMs: number): LorebookError => busyError(names, reason, retryAfterMs);
  /** Each caller's waiting jobs; Map order is the turn order (a caller served moves to the back). */
  const lines = new Map<string, Waiting[]>();
  const runningBy = new Map<string, number>();
  let running = 0;
  let waiting = 0;
  let typicalMs = FIRST_ESTIMATE_MS;

  const runningOf = (caller: string): number => runningBy.get(caller) ?? 0;
  const mayRun = (caller: string): boolean => runningOf(caller) < (caller === PROCESS ? share.slots : share.perCaller);

  /** Refuses all of a caller's waiting jobs with `error`. */
  const refuseLine = (caller: string, line: Waiting[], error: Error): void => {
    lines.delete(caller);
    waiting -= line.length;
    for (const job of line) {
      clearTimeout(job.timer);
      job.refuse(error);
    }
  };

  const nextInTurn = (): Waiting | undefined => {
    for (const [caller, line] of lines) {
      if (!mayRun(caller)) continue;
      // The minute is checked again at the turn: jobs queued while it had room would otherwise all
      // run past it (twelve scans of ~1.7 s queued at once against an address's 5 s). The process's
      // own jobs are never charged, so never refused here.
      const spent = costs?.refusal(caller);
      if (spent !== undefined) {
        refuseLine(caller, line, spent);
        continue;
      }
      if ((line[0] as Waiting).heavy && !gate.hasRoom()) continue;
      const job = line.shift() as Waiting;
      lines.delete(caller);
      if (line.length > 0) lines.set(caller, line);
      waiting -= 1;
      return job;
    }
    return undefined;
  };

  const pump = (): void => {
    while (running < share.slots) {
      const job = nextInTurn();
      if (job === undefined) return;
      clearTimeout(job.timer);
      running += 1;
      if (job.heavy) gate.take();
      runningBy.set(job.caller, runningOf(job.caller) + 1);
      job.begin();
    }
  };
  gate.join({ pump, heavyWaiting: () => [...lines.values()].some((line) => line.some((job) => job.heavy)) });

  const finished = (caller: string, wasHeavy: boolean, heldMs: number): void => {
    running -= 1;
    const left = runningOf(caller) - 1;
    if (left > 0) runningBy.set(caller, left);
    else runningBy.delete(caller);
    typicalMs = 0.8 * typicalMs + 0.2 * heldMs;
    if (caller !== PROCESS) costs?.charge(caller, heldMs);
    if (wasHeavy) gate.release(pump, heldMs);
    else pump();
  };

  const refusalFor = (caller: string): LorebookError | undefined => {
    if (caller === PROCESS) return undefined;
    const spent = costs?.refusal(caller);
    if (spent !== undefined) return spent;
    const mine = runningOf(caller) + (lines.get(caller)?.length ?? 0);
    if (mine >= share.perCaller + share.perCallerWaiting) return busy('cpu_share', estimate(mine - share.perCaller + 1, share.perCaller));
    if (waiting >= share.maxWaiting) return busy('cpu_queue_full', estimate(waiting + 1, share.slots));
    return undefined;
  };

  /** A caller's wait for a started job's answer, where the share bounds it; the process's own jobs wait their budget. */
  const answerBound = (caller: string, reject: (error: LorebookError) => void): NodeJS.Timeout | undefined => {
    const bound = share.answerWaitMs;
    if (bound === undefined || caller === PROCESS) return undefined;
    // It has run this long already: as long again is the nearest guess of when a slot is free.
    return setTimeout(() => reject(busy('answer_wait', bound)), bound);
  };

  const estimate = (jobsAhead: number, slots: number): number => Math.max(100, Math.ceil((typicalMs * jobsAhead) / Math.max(1, slots)));

  return {
    run<T>(caller: string | undefined, budgetMs: number, start: (remainingMs: number) => Promise<T>, options: JobOptions = {}): Promise<T> {
      const { heavy: isHeavy = false, signal } = options;
      const key = caller ?? PROCESS;
      if (signal?.aborted) return Promise.reject(withdrawn());
      const refusal = refusalFor(key);
      if (refusal !== undefined) return Promise.reject(refusal);
      return new Promise<T>((resolve, reject) => {
        const queuedAt = now();
        /** Takes the job out of its caller's line, unstarted. */
        const leave = (): void => {
          clearTimeout(job.timer);
          signal?.removeEventListener('abort', withdraw);
          const line = lines.get(key) as Waiting[];
          line.splice(line.indexOf(job), 1);
          if (line.length === 0) lines.delete(key);
          waiting -= 1;
        };
        const withdraw = (): void => {
          leave();
          reject(withdrawn());
        };
        const job: Waiting = {
          caller: key,
          heavy: isHeavy,
          timer: setTimeout(
            () => {
              leave();
              reject(busy('cpu_wait', estimate(waiting + 1, share.slots)));
            },
            key === PROCESS ? budgetMs : Math.min(share.maxWaitMs, budgetMs),
          ),
          begin() {
            signal?.removeEventListener('abort', withdraw);
            const startedAt = now();
            const remainingMs = Math.max(1, Math.round(budgetMs - (startedAt - queuedAt)));
            const late = answerBound(key, reject);
            Promise.resolve()
              .then(() => start(remainingMs))
              .then(
                (value) => {
                  clearTimeout(late);
                  finished(key, isHeavy, now() - startedAt);
                  resolve(value);
                },
                (error: unknown) => {
                  clearTimeout(late);
                  finished(key, isHeavy, now() - startedAt);
                  reject(error);
                },
              );
          },
          refuse(error) {
            signal?.removeEventListener('abort', withdraw);
            reject(error);
          },
        };
        const line = lines.get(key);
        if (line === undefined) lines.set(key, [job]);
        else line.push(job);
        waiting += 1;
        signal?.addEventListener('abort', withdraw);
        pump();
      });
    },
    clear(error) {
      for (const [caller, line] of lines) refuseLine(caller, line, error);
    },
  };
}

/** A refusal for load in words, by its reason (details.reason). */
export interface SlotNames {
  cpu_share: string;
  cpu_queue_full: string;
  cpu_wait: string;
  /** A question not answered within the share's answerWaitMs. */
  answer_wait: string;
}

const WORKERS: SlotNames = {
  cpu_share: 'your share of the workers is in use',
  cpu_queue_full: "the workers' queue is full",
  cpu_wait: 'no worker came free in time',
  answer_wait: 'no worker answered in time',
};

/** Whether an error is a fair queue's refusal for load (nothing ran, or its answer is not waited for). */
export const refusedForLoad = (error: unknown): boolean =>
  error instanceof LorebookError && error.code === 'rate_limited' && Object.hasOwn(WORKERS, String(error.details?.reason));

/** A job whose caller went away while it waited: nobody reads this, but the request ends typed. */
function withdrawn(): LorebookError {
  return new LorebookError(
    'rate_limited',
    'Withdrawn: the connection closed while the call waited for its turn. Nothing was done; send the same call again.',
    { retryAfterMs: 0, details: { reason: 'withdrawn' } },
  );
}

/** The refusal for load: nothing has run, so the same call can be sent again as it is. */
function busyError(names: SlotNames, reason: keyof SlotNames, retryAfterMs: number): LorebookError {
  return new LorebookError(
    'rate_limited',
    `Busy: ${names[reason]}. Nothing was done; send the same call again after retry_after_ms (${retryAfterMs} ms).`,
    { retryAfterMs, details: { reason } },
  );
}
