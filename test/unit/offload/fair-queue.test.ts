// The fair queue in front of the offload workers and the image re-encoder (docs/design.md#fair-cpu):
// a caller never runs more than its share while another caller waits, waiting counts against a
// job's budget, and a job refused for load is a typed rate_limited with retry_after_ms that runs
// nothing. Jobs here are promises the test settles, and time is a clock the test moves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LorebookError } from '../../../src/domain/errors.ts';
import { createCpuWindows } from '../../../src/offload/cpu-windows.ts';
import { createFairQueue, type FairShare, refusedForLoad } from '../../../src/offload/fair-queue.ts';
import { createOffload, type Offload } from '../../../src/offload/offload.ts';
import { heldJob } from '../../helpers/held-job.ts';
import { SPIN, WHICH_THREAD } from '../../helpers/offload-tasks.ts';
import { refusal } from '../../helpers/refusal.ts';

const SHARE: FairShare = { slots: 2, perCaller: 1, perCallerWaiting: 1, maxWaiting: 8, maxWaitMs: 5_000 };
/** A clock that stands still: a job that starts at once starts with its whole budget, however loaded the machine. */
const STILL = { now: (): number => 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('the fair queue', () => {
  it('time spent queued counts against the budget: a job that waited 300 ms starts with its budget less 300 ms', async () => {
    let clock = 1_000;
    const queue = createFairQueue({ ...SHARE, slots: 1 }, { now: () => clock });
    const first = heldJob();
    const second = heldJob();
    const firstDone = queue.run('account:a', 10_000, first.start);
    const secondDone = queue.run('account:b', 10_000, second.start);
    await Promise.resolve();
    expect(first.started).toBe(10_000);
    expect(second.started).toBeUndefined();
    clock += 300;
    first.finish();
    await firstDone;
    await vi.waitFor(() => expect(second.started).toBe(9_700));
    second.finish();
    await secondDone;
  });

  it("one caller cannot run more than its share while another caller's job runs beside it", async () => {
    const queue = createFairQueue(SHARE, STILL);
    const flood = [heldJob(), heldJob()];
    const victim = heldJob();
    const floodDone = flood.map((job) => queue.run('ip:attacker', 20_000, job.start));
    const victimDone = queue.run('account:victim', 20_000, victim.start);
    await Promise.resolve();
    // Two slots: the attacker holds one (its share), the victim's job has the other at once.
    expect(flood.map((job) => job.started !== undefined)).toEqual([true, false]);
    expect(victim.started).toBe(20_000);
    victim.finish();
    await victimDone;
    // A free slot does not go to the attacker's waiting job while its first still runs.
    await Promise.resolve();
    expect(flood[1]?.started).toBeUndefined();
    flood[0]?.finish();
    await vi.waitFor(() => expect(flood[1]?.started).toBeDefined());
    flood[1]?.finish();
    await Promise.all(floodDone);
  });

  it('a caller past its share and its waiting places is refused rate_limited with retry_after_ms, and its job never runs', async () => {
    const queue = createFairQueue(SHARE);
    const held = [heldJob(), heldJob()];
    const running = held.map((job) => queue.run('ip:attacker', 20_000, job.start));
    const start = vi.fn(async () => undefined);
    const error = await refusal(queue.run('ip:attacker', 20_000, start));
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, details: { reason: 'cpu_share' } });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(start).not.toHaveBeenCalled();
    held[0]?.finish();
    await vi.waitFor(() => expect(held[1]?.started).toBeDefined());
    held[1]?.finish();
    await Promise.all(running);
  });

  it('a full queue refuses any caller rate_limited (cpu_queue_full) with retry_after_ms', async () => {
    const queue = createFairQueue({ ...SHARE, slots: 1, maxWaiting: 2 });
    const held = [heldJob(), heldJob(), heldJob()];
    const running = held.map((job, index) => queue.run(`ip:${index}`, 20_000, job.start));
    const error = await refusal(queue.run('account:late', 20_000, async () => undefined));
    expect(error).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_queue_full' } });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    for (const job of held) {
      await vi.waitFor(() => expect(job.started).toBeDefined());
      job.finish();
    }
    await Promise.all(running);
  });

  it('a job that waits past the wait bound is refused rate_limited (cpu_wait) instead of stalling, and never runs', async () => {
    vi.useFakeTimers();
    const queue = createFairQueue({ ...SHARE, slots: 1, maxWaitMs: 2_000 });
    const holder = heldJob();
    const held = queue.run('account:a', 20_000, holder.start);
    const start = vi.fn(async () => undefined);
    const waiting = refusal(queue.run('account:b', 20_000, start));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await waiting).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_wait' } });
    holder.finish();
    await held;
    expect(start).not.toHaveBeenCalled();
  });

  it("a caller waits for a started job's answer at most the answer bound: refused rate_limited (answer_wait), while the job keeps its slot until it ends", async () => {
    vi.useFakeTimers();
    const queue = createFairQueue({ ...SHARE, slots: 1, maxWaitMs: 10_000, answerWaitMs: 2_000 });
    const slow = heldJob();
    const answer = refusal(queue.run('ip:first', 60_000, slow.start));
    const next = heldJob();
    const nextDone = queue.run('ip:second', 60_000, next.start);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await answer;
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 2_000, details: { reason: 'answer_wait' } });
    expect(refusedForLoad(error)).toBe(true);
    // The slot is still the slow job's: the next caller's job starts only when it ends.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(next.started).toBeUndefined();
    slow.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(next.started).toBeDefined();
    next.finish();
    await nextDone;
  });

  it("an answer within the bound is the caller's, and the process's own jobs (no caller) are never cut by it", async () => {
    vi.useFakeTimers();
    const queue = createFairQueue({ ...SHARE, slots: 1, answerWaitMs: 2_000 });
    const quick = heldJob();
    const quickDone = queue.run('ip:quick', 60_000, quick.start);
    await vi.advanceTimersByTimeAsync(1_900);
    quick.finish();
    await expect(quickDone).resolves.toBeUndefined();
    const own = heldJob();
    const ownDone = queue.run(undefined, 60_000, own.start);
    await vi.advanceTimersByTimeAsync(30_000);
    own.finish();
    await expect(ownDone).resolves.toBeUndefined();
  });

  it("a waiting job whose caller's request ends is withdrawn: it never runs and its place is the caller's again; an ended request is never queued", async () => {
    const queue = createFairQueue({ ...SHARE, slots: 1, perCallerWaiting: 0 });
    const holder = heldJob();
    const held = queue.run('ip:a', 20_000, holder.start);
    const request = new AbortController();
    const withdrawnJob = vi.fn(async () => 'ran');
    const waiting = refusal(queue.run('ip:b', 20_000, withdrawnJob, { signal: request.signal }));
    // Its one place is taken while it waits.
    expect((await refusal(queue.run('ip:b', 20_000, async () => 'ran'))).details).toEqual({ reason: 'cpu_share' });
    request.abort();
    expect(await waiting).toMatchObject({ code: 'rate_limited', retryAfterMs: 0, details: { reason: 'withdrawn' } });
    const next = queue.run('ip:b', 20_000, async () => 'next ran');
    expect((await refusal(queue.run('ip:c', 20_000, async () => 'ran', { signal: AbortSignal.abort() }))).details).toEqual({
      reason: 'withdrawn',
    });
    holder.finish();
    await held;
    await expect(next).resolves.toBe('next ran');
    expect(withdrawnJob).not.toHaveBeenCalled();
  });

  it("a withdrawn job takes only itself out: the caller's other waiting job still runs, the queue's count is right again, and its wait bound is gone", async () => {
    vi.useFakeTimers();
    const queue = createFairQueue({ ...SHARE, slots: 1, perCallerWaiting: 2, maxWaiting: 2, maxWaitMs: 2_000 });
    const holder = heldJob();
    const held = queue.run('ip:a', 20_000, holder.start);
    const first = heldJob();
    const firstDone = queue.run('ip:b', 20_000, first.start);
    const request = new AbortController();
    const cut = refusal(queue.run('ip:b', 20_000, async () => 'ran', { signal: request.signal }));
    await vi.advanceTimersByTimeAsync(100);
    request.abort();
    expect((await cut).details).toEqual({ reason: 'withdrawn' });
    // One job waits now, so the queue of two has room for another caller's.
    const other = heldJob();
    const otherDone = queue.run('ip:c', 20_000, other.start);
    await vi.advanceTimersByTimeAsync(1_400);
    holder.finish();
    await held;
    await vi.advanceTimersByTimeAsync(0);
    expect(first.started).toBeDefined();
    first.finish();
    await firstDone;
    await vi.advanceTimersByTimeAsync(0);
    expect(other.started).toBeDefined();
    // Past the withdrawn job's wait bound: nothing of it is left to fire.
    await vi.advanceTimersByTimeAsync(1_000);
    other.finish();
    await otherDone;
  });

  it('clear refuses every waiting job, and a request that ends afterwards disturbs no job queued since', async () => {
    const queue = createFairQueue({ ...SHARE, slots: 1 });
    const holder = heldJob();
    const held = queue.run('ip:a', 20_000, holder.start);
    const request = new AbortController();
    const cleared = queue.run('ip:b', 20_000, async () => 'ran', { signal: request.signal }).catch((error: unknown) => error);
    const unsignalled = queue.run('ip:c', 20_000, async () => 'ran').catch((error: unknown) => error);
    queue.clear(new Error('the workers are closed'));
    expect(await Promise.all([cleared, unsignalled])).toEqual([new Error('the workers are closed'), new Error('the workers are closed')]);
    const next = heldJob();
    const nextDone = queue.run('ip:b', 20_000, next.start);
    request.abort();
    holder.finish();
    await held;
    await vi.waitFor(() => expect(next.started).toBeDefined());
    next.finish();
    await nextDone;
  });

  it("a job that has started is the caller's to the end: its request ending then withdraws nothing", async () => {
    const queue = createFairQueue({ ...SHARE, slots: 1 });
    const request = new AbortController();
    const job = heldJob();
    const done = queue.run('ip:a', 20_000, job.start, { signal: request.signal });
    await vi.waitFor(() => expect(job.started).toBeDefined());
    request.abort();
    job.finish();
    await expect(done).resolves.toBeUndefined();
  });

  it('a caller that has spent its CPU minute is refused until the minute ends; another caller is not', async () => {
    let clock = 60_000 * 100 + 10_000;
    const costs = createCpuWindows({ accountMsPerMinute: 1_000, anonymousMsPerMinute: 500 }, () => clock);
    const queue = createFairQueue(SHARE, { costs });
    costs.charge('ip:heavy', 500);
    const error = await refusal(queue.run('ip:heavy', 20_000, async () => undefined));
    expect(error).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_time', limit_ms: 500 } });
    expect(error.retryAfterMs).toBe(50_000);
    await expect(queue.run('account:other', 20_000, async () => 'ran')).resolves.toBe('ran');
    clock += 50_000;
    await expect(queue.run('ip:heavy', 20_000, async () => 'ran')).resolves.toBe('ran');
  });

  it("jobs queued while the caller's minute had room are refused (cpu_time) at their turn once it is spent, unrun and gone from the queue", async () => {
    vi.useFakeTimers();
    let clock = 60_000 * 100;
    const costs = createCpuWindows({ accountMsPerMinute: 1_000, anonymousMsPerMinute: 500 }, () => clock);
    const share = { ...SHARE, slots: 1, perCallerWaiting: 2, maxWaiting: 3, maxWaitMs: 2_000 };
    const queue = createFairQueue(share, { costs, now: () => clock });
    const first = heldJob();
    const queued = [heldJob(), heldJob()];
    const other = heldJob();
    const firstDone = queue.run('ip:scanner', 20_000, first.start);
    const queuedDone = queued.map((job) => refusal(queue.run('ip:scanner', 20_000, job.start)));
    const otherDone = queue.run('ip:other', 20_000, other.start);
    await vi.advanceTimersByTimeAsync(0);
    expect(first.started).toBeDefined();
    // The running job holds its slot 600 ms, past the address's 500: its caller's waiting jobs are refused at their turn.
    clock += 600;
    first.finish();
    await firstDone;
    for (const error of await Promise.all(queuedDone)) {
      expect(error).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_time', limit_ms: 500 } });
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(other.started).toBeDefined();
    // The queue of three counts them gone: three more callers wait behind the running job.
    const more = ['ip:c', 'ip:d', 'ip:e'].map((caller) => queue.run(caller, 20_000, async () => caller));
    other.finish();
    await otherDone;
    await expect(Promise.all(more)).resolves.toEqual(['ip:c', 'ip:d', 'ip:e']);
    // Past the refused jobs' wait bound nothing of them fires, and in the next minute the scanner runs again, its refused jobs never.
    await vi.advanceTimersByTimeAsync(share.maxWaitMs);
    clock += 60_000;
    await expect(queue.run('ip:scanner', 20_000, async () => 'ran')).resolves.toBe('ran');
    expect(queued.map((job) => job.started)).toEqual([undefined, undefined]);
  });

  it("heavy jobs from many callers never take the last free slot: a stranger's light job runs in it at once", async () => {
    const queue = createFairQueue(SHARE, STILL);
    const heavy = [heldJob(), heldJob(), heldJob()];
    const heavyDone = heavy.map((job, index) => queue.run(`ip:attacker-${index}`, 20_000, job.start, { heavy: true }));
    await Promise.resolve();
    // Two slots: one heavy job runs, the other slot stays free although two more heavy jobs wait.
    expect(heavy.map((job) => job.started !== undefined)).toEqual([true, false, false]);
    const light = heldJob();
    const lightDone = queue.run('ip:reader', 20_000, light.start);
    await Promise.resolve();
    expect(light.started).toBe(20_000);
    light.finish();
    await lightDone;
    // The heavy jobs take the heavy slot in turn, one at a time.
    heavy[0]?.finish();
    await heavyDone[0];
    await vi.waitFor(() => expect(heavy.map((job) => job.started !== undefined)).toEqual([true, true, false]));
    heavy[1]?.finish();
    await heavyDone[1];
    await vi.waitFor(() => expect(heavy[2]?.started).toBeDefined());
    heavy[2]?.finish();
    await heavyDone[2];
  });

  it('with one slot, a heavy job still runs', async () => {
    const queue = createFairQueue({ ...SHARE, slots: 1 });
    await expect(queue.run('ip:only', 20_000, async () => 'ran', { heavy: true })).resolves.toBe('ran');
  });

  it("the process's own jobs (no caller) are never refused for a share", async () => {
    const queue = createFairQueue({ ...SHARE, perCallerWaiting: 0 });
    const ran = await Promise.all(Array.from({ length: 6 }, (_, index) => queue.run(undefined, 20_000, async () => index)));
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('a refusal for load, told apart from every other refusal', () => {
  it('is recognised whatever the queue calls its slots (the workers, the search index); a CPU minute spent, the call budget, a job withdrawn with its request, a store outage or a plain error are not', async () => {
    const refusedBy = async (names?: Parameters<typeof createFairQueue>[1]) => {
      const queue = createFairQueue({ ...SHARE, perCallerWaiting: 0 }, names);
      const held = heldJob();
      const running = queue.run('ip:a', 20_000, held.start);
      const error = await refusal(queue.run('ip:a', 20_000, async () => undefined));
      held.finish();
      await running;
      return error;
    };
    const named = await refusedBy({
      names: { cpu_share: 'your share of the index is in use', cpu_queue_full: 'full', cpu_wait: 'late', answer_wait: 'slow' },
    });
    expect(named.message).toMatch(/^Busy: your share of the index is in use\./);
    expect([refusedForLoad(await refusedBy()), refusedForLoad(named)]).toEqual([true, true]);
    for (const reason of ['cpu_share', 'cpu_queue_full', 'cpu_wait', 'answer_wait'])
      expect(refusedForLoad(new LorebookError('rate_limited', 'Busy.', { retryAfterMs: 1, details: { reason } }))).toBe(true);
    const others = [
      new LorebookError('rate_limited', 'Your calls used their CPU minute.', { retryAfterMs: 1, details: { reason: 'cpu_time' } }),
      new LorebookError('rate_limited', 'Over the call budget.', { retryAfterMs: 1 }),
      // A job withdrawn with its caller's request: a publish so cut writes nothing rather than publishing without similar.
      await refusal(createFairQueue(SHARE).run('ip:a', 20_000, async () => undefined, { signal: AbortSignal.abort() })),
      new LorebookError('store_unavailable', 'The search index stopped.', { retryAfterMs: 1, details: { reason: 'cpu_wait' } }),
      Object.assign(new Error('cpu_wait'), { code: 'rate_limited', details: { reason: 'cpu_wait' } }),
    ];
    expect(others.map(refusedForLoad)).toEqual([false, false, false, false, false]);
  });
});

describe('the offload workers, shared among callers', () => {
  let offload: Offload | undefined;
  afterEach(async () => {
    await offload?.close();
  });

  it("a caller's heavy tasks hold one worker; another caller's task runs on the other before the first caller's next", {
    timeout: 60_000,
  }, async () => {
    // A generous wait bound: a loaded machine may take seconds to start a worker.
    offload = createOffload({ share: { ...SHARE, perCallerWaiting: 4, maxWaitMs: 30_000 } });
    const finished: string[] = [];
    const heavy = [0, 1].map((index) => offload?.run(SPIN(30_000), 1_500, 'ip:attacker').then(() => finished.push(`attacker ${index}`)));
    const light = offload.run(WHICH_THREAD, undefined, 'account:victim').then(() => finished.push('victim'));
    await Promise.all([...heavy, light]);
    expect(finished).toEqual(['victim', 'attacker 0', 'attacker 1']);
  });

  it('a task refused for load arrives as a LorebookError, not a budget overrun', { timeout: 60_000 }, async () => {
    offload = createOffload({ share: { ...SHARE, perCallerWaiting: 0 } });
    const first = offload.run(SPIN(30_000), 1_000, 'ip:attacker');
    const error = await refusal(offload.run(SPIN(30_000), 1_000, 'ip:attacker'));
    expect(error).toBeInstanceOf(LorebookError);
    expect(error).toMatchObject({ code: 'rate_limited', details: { reason: 'cpu_share' } });
    await first;
  });
});
