// The offload worker: tasks run on another thread, so the event loop stays free; a task past its
// budget is stopped and the next runs on a fresh worker; a refusal arrives typed; a task that
// exhausts the worker's capped heap ends that task, not the process; a worker grown past its heap
// bound, stopped by its budget or dead is replaced by one that imports the task modules at once;
// a spare worker starts, warm, when a heavy job leaves no started worker idle; heavy jobs run on
// workers of lowered priority, ordinary ones on the first worker.
import { execFile } from 'node:child_process';
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_CAPABILITY_TASK } from '../../../src/app/capability/check-capability-task.ts';
import { RESCAN_STORY_TASK } from '../../../src/app/capability/rescan/story-task.ts';
import { PARSE_STORY_TASK } from '../../../src/app/story-content/parse-story-task.ts';
import { LorebookError } from '../../../src/domain/errors.ts';
import { RENDER_STORY_BODY_TASK } from '../../../src/http/pages/render-body-task.ts';
import {
  createOffload,
  DEFAULT_RECYCLE_HEAP_BYTES,
  HEAVY_TEXT_CHARS,
  heavyText,
  type Offload,
  OffloadBudgetExceeded,
  OffloadFailed,
} from '../../../src/offload/offload.ts';
import { COMPACT_PAST_BYTES } from '../../../src/offload/offload-worker.ts';
import { HEAVY_LANE_NICENESS } from '../../../src/offload/thread-priority.ts';
import { PLAIN_TEXT_TASK } from '../../../src/outbox/plain-text-task.ts';
import { eventually } from '../../helpers/eventually.ts';
import {
  EXHAUST_HEAP,
  HEAP_SIZE,
  HEAP_THREAD,
  IMPORTS_CHANNEL,
  KEEP_MEMORY,
  LEAVE_GARBAGE,
  SPIN_PAST_BUDGET,
} from '../../helpers/offload-heap-tasks.ts';
import { EXHAUST_MEMORY, NICENESS, REFUSE, SPIN, WHICH_THREAD } from '../../helpers/offload-tasks.ts';

const opened: Offload[] = [];
const offload = (options?: Parameters<typeof createOffload>[0]): Offload => {
  const made = createOffload(options);
  opened.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((made) => made.close()));
});

describe('the offload worker', () => {
  it('runs a task on another thread than the caller', async () => {
    expect(await offload().run(WHICH_THREAD, undefined)).not.toBe(threadId);
  });

  it('leaves the event loop free while a task keeps the CPU busy', { timeout: 30_000 }, async () => {
    const worker = offload();
    await worker.run(WHICH_THREAD, undefined);
    let last = performance.now();
    let longestGap = 0;
    const ticks = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    await worker.run(SPIN(10_000), 1_500);
    clearInterval(ticks);
    // The gap up to now counts too: inline, no tick would have run since the task started.
    longestGap = Math.max(longestGap, performance.now() - last);
    // Inline, the gap would be the whole 1.5 s; generous for a loaded machine.
    expect(longestGap).toBeLessThan(500);
  });

  it('stops a task past its budget, and the next task runs on a fresh worker', { timeout: 30_000 }, async () => {
    const worker = offload();
    const before = await worker.run(WHICH_THREAD, undefined);
    const started = performance.now();
    const stopped = await worker.run(SPIN(200), 60_000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(OffloadBudgetExceeded);
    expect(performance.now() - started).toBeLessThan(10_000);
    const after = await worker.run(WHICH_THREAD, undefined);
    expect(after).not.toBe(before);
  });

  it('a refusal thrown in the task arrives as the same typed error', async () => {
    const error = await offload()
      .run(REFUSE, 'markdown')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(LorebookError);
    expect((error as LorebookError).code).toBe('validation_failed');
    expect((error as LorebookError).details).toEqual({ fields: { markdown: 'fix it' } });
  });

  it('a task that exhausts the capped heap fails alone; the next task runs', { timeout: 60_000 }, async () => {
    const worker = offload({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const error = await worker.run(EXHAUST_MEMORY, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OffloadFailed);
    expect(typeof (await worker.run(WHICH_THREAD, undefined))).toBe('number');
  });

  it('an idle worker keeps no process alive: a process that ran a task and has nothing left exits by itself', {
    timeout: 60_000,
  }, async () => {
    const script = fileURLToPath(new URL('../../helpers/offload-then-idle.ts', import.meta.url));
    // Kept alive, the process would run into this bound and be killed; a loaded machine exits well inside it.
    const exited = await promisify(execFile)(process.execPath, [script], { timeout: 30_000 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number | string; killed?: boolean; stdout?: string }) => ({
        code: error.killed === true ? 'killed' : error.code,
        stdout: error.stdout,
      }),
    );
    expect(exited).toEqual({ code: 0, stdout: 'ran\n' });
  });

  it('runs a task inline when its module is not a file (a bundle)', async () => {
    const inline = { ...WHICH_THREAD, module: new URL('file:///nowhere/bundled-away.ts') };
    expect(await offload().run(inline, undefined)).toBe(threadId);
  });
});

// A worker whose heap a task grew past the bound is replaced after that task, by a fresh worker
// that imports the task modules at once: V8 keeps a heap it has grown.
const BOUND = 64 * 1024 * 1024;
const listening: BroadcastChannel[] = [];
afterEach(() => {
  for (const channel of listening.splice(0)) channel.close();
});

const oneWorker = (slots = 1, recycleHeapBytes = BOUND): Offload => {
  const made = createOffload({
    recycleHeapBytes,
    share: { slots, perCaller: 1, perCallerWaiting: 4, maxWaiting: 4, maxWaitMs: 30_000 },
  });
  opened.push(made);
  return made;
};

/** The threads that imported the heap tasks' module, as they say so. */
const importers = (): number[] => {
  const seen: number[] = [];
  const channel = new BroadcastChannel(IMPORTS_CHANNEL);
  channel.onmessage = (event) => seen.push((event as { data: number }).data);
  listening.push(channel);
  return seen;
};

describe('a worker grown past its heap bound is replaced after its task', () => {
  it('the next task runs on a fresh worker, which imported the task module before any task asked', { timeout: 60_000 }, async () => {
    const seen = importers();
    const worker = oneWorker();
    const grown = await worker.run(KEEP_MEMORY, 96);
    // The replacement imports the lane's modules at once: it says so with no task sent to it.
    const fresh = await eventually(async () => seen.find((thread) => thread !== grown), 'the replacement imports the module', 30_000);
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(fresh);
    expect(seen).toEqual([grown, fresh]);
  });

  it('a worker whose heap stays under the bound keeps running the tasks', { timeout: 60_000 }, async () => {
    const worker = oneWorker();
    const first = await worker.run(KEEP_MEMORY, 1);
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(first);
    expect(await worker.run(KEEP_MEMORY, 1)).toBe(first);
  });

  it('while the replacement imports, the next task goes to an idle warm worker', { timeout: 60_000 }, async () => {
    const worker = oneWorker(2);
    // Both workers warm: two callers at once take one each.
    const [first, second] = await Promise.all([worker.run(HEAP_THREAD, undefined, 'a'), worker.run(HEAP_THREAD, undefined, 'b')]);
    expect(await worker.run(KEEP_MEMORY, 96)).toBe(first);
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(second);
  });
});

describe('a worker a task left with a grown heap compacts it after answering', () => {
  it('the next task on the same worker finds the heap back under the bound, where the garbage had taken it past', {
    timeout: 60_000,
  }, async () => {
    // The default bound: the garbage must not get the worker replaced.
    const worker = oneWorker(1, DEFAULT_RECYCLE_HEAP_BYTES);
    const thread = await worker.run(HEAP_THREAD, undefined);
    const grown = await worker.run(LEAVE_GARBAGE, 48);
    expect(grown).toBeGreaterThan(COMPACT_PAST_BYTES);
    expect(await worker.run(HEAP_SIZE, undefined)).toBeLessThan(COMPACT_PAST_BYTES);
    // Compacted, not replaced: the same worker answered.
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(thread);
  });
});

describe('a spare worker starts, warm, when a heavy job leaves no started worker idle', () => {
  const HEAVY_SPIN = { ...SPIN_PAST_BUDGET, budgetMs: 30_000, heavy: () => true };

  it('light calls one at a time keep one worker; a heavy one starts a worker of its own while the next call still runs on the first', {
    timeout: 60_000,
  }, async () => {
    const seen = importers();
    const worker = oneWorker(2);
    const first = await worker.run(HEAP_THREAD, undefined);
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(first);
    // Nothing else started: the thread that ran the calls is the only one that imported the module.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen).toEqual([first]);
    const busy = worker.run(HEAVY_SPIN, 3_000, 'a');
    const heavyLane = await eventually(
      async () => seen.find((thread) => thread !== first),
      "the heavy job's worker imports the module",
      30_000,
    );
    expect(await worker.run(HEAP_THREAD, undefined, 'b')).toBe(first);
    await busy;
    expect(new Set(seen)).toEqual(new Set([first, heavyLane]));
  });

  it.runIf(process.platform === 'linux')(
    `heavy jobs run on a worker lowered to niceness ${HEAVY_LANE_NICENESS}, ordinary ones on the first worker at the process's`,
    { timeout: 60_000 },
    async () => {
      const own = getPriority(0);
      const worker = oneWorker(2);
      expect(await worker.run(NICENESS, undefined, 'a')).toBe(own);
      expect(await worker.run({ ...NICENESS, heavy: () => true }, undefined, 'b')).toBe(Math.max(own, HEAVY_LANE_NICENESS));
      // The first worker is free again: the next ordinary job runs there, not on the lowered one.
      expect(await worker.run(NICENESS, undefined, 'c')).toBe(own);
    },
  );
});

describe('a worker stopped by its budget, or dead, is replaced at once by one that imports the task modules', () => {
  it('after a task past its budget, the replacement imports the task module before any task asks, and runs the next', {
    timeout: 60_000,
  }, async () => {
    const seen = importers();
    const worker = oneWorker();
    // Warm first: a cold worker's import alone can outlast the short budget.
    const first = await worker.run(HEAP_THREAD, undefined);
    const stopped = await worker.run(SPIN_PAST_BUDGET, 60_000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(OffloadBudgetExceeded);
    const fresh = await eventually(async () => seen.find((thread) => thread !== first), 'the replacement imports the module', 30_000);
    expect(await worker.run(HEAP_THREAD, undefined)).toBe(fresh);
    expect(seen).toEqual([first, fresh]);
  });

  it('after a worker dies running a task, the replacement imports the task module before any task asks, and runs the next', {
    timeout: 60_000,
  }, async () => {
    const seen = importers();
    const made = createOffload({
      resourceLimits: { maxOldGenerationSizeMb: 32 },
      share: { slots: 1, perCaller: 1, perCallerWaiting: 4, maxWaiting: 4, maxWaitMs: 30_000 },
    });
    opened.push(made);
    const failed = await made.run(EXHAUST_HEAP, undefined).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(OffloadFailed);
    const first = await eventually(async () => seen[0], 'the stopped worker had imported the module', 30_000);
    const fresh = await eventually(async () => seen.find((thread) => thread !== first), 'the replacement imports the module', 30_000);
    expect(await made.run(HEAP_THREAD, undefined)).toBe(fresh);
    expect(seen).toEqual([first, fresh]);
  });
});

// Which jobs are heavy (fair-queue.ts): a large input never takes the last free worker. Each task
// that parses, scans or renders markdown says so past HEAVY_TEXT_CHARS.
const AT_LIMIT = 'x'.repeat(HEAVY_TEXT_CHARS);
const PAST = `${AT_LIMIT}x`;

describe('heavy offload jobs', () => {
  it('a text is heavy past HEAVY_TEXT_CHARS, counting every text given and nothing else', () => {
    expect(heavyText(AT_LIMIT)).toBe(false);
    expect(heavyText(PAST)).toBe(true);
    expect(heavyText(AT_LIMIT.slice(1), 'xy')).toBe(true);
    expect(heavyText(AT_LIMIT, ['not', 'text'], 7, undefined)).toBe(false);
  });

  it('publish and edit: a story sent as markdown or as parts', () => {
    expect(PARSE_STORY_TASK.heavy?.({ markdown: AT_LIMIT })).toBe(false);
    expect(PARSE_STORY_TASK.heavy?.({ markdown: PAST })).toBe(true);
    const parts = { title: 'T', date: '2026-12-03', tags: ['a'], type: 'success', narrative: AT_LIMIT.slice(100) };
    expect(PARSE_STORY_TASK.heavy?.({ parts })).toBe(false);
    expect(PARSE_STORY_TASK.heavy?.({ parts: { ...parts, what_i_tried: 'x'.repeat(200) } })).toBe(true);
  });

  it('check_capability, the rescan, the page render and the plain text', () => {
    expect([CHECK_CAPABILITY_TASK.heavy?.(AT_LIMIT), CHECK_CAPABILITY_TASK.heavy?.(PAST)]).toEqual([false, true]);
    expect([
      RESCAN_STORY_TASK.heavy?.({ markdown: AT_LIMIT, scannerVersion: '1' }),
      RESCAN_STORY_TASK.heavy?.({ markdown: PAST, scannerVersion: '1' }),
    ]).toEqual([false, true]);
    expect([RENDER_STORY_BODY_TASK.heavy?.({ markdown: AT_LIMIT }), RENDER_STORY_BODY_TASK.heavy?.({ markdown: PAST })]).toEqual([
      false,
      true,
    ]);
    expect([PLAIN_TEXT_TASK.heavy?.(AT_LIMIT), PLAIN_TEXT_TASK.heavy?.(PAST)]).toEqual([false, true]);
  });
});
