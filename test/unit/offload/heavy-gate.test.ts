// Heavy jobs of every kind share one bound (src/offload/heavy-gate.ts): two fair queues on one gate,
// as the offload workers and the image re-encoder are built (src/offload/cpu-slots.ts), never run
// more heavy jobs between them than the gate allows, light jobs are not held by it, and a place
// that frees goes to the other queue's waiting heavy job before the freeing queue's own.
import { describe, expect, it, vi } from 'vitest';
import { createFairQueue, type FairQueue, type FairShare } from '../../../src/offload/fair-queue.ts';
import { createHeavyGate, HEAVY_REST_SHARE, heavySlots } from '../../../src/offload/heavy-gate.ts';
import { type HeldJob, heldJob } from '../../helpers/held-job.ts';

const WORKERS: FairShare = { slots: 2, perCaller: 1, perCallerWaiting: 4, maxWaiting: 8, maxWaitMs: 5_000 };
const REENCODER: FairShare = { slots: 1, perCaller: 1, perCallerWaiting: 0, maxWaiting: 8, maxWaitMs: 5_000 };

const started = (jobs: { started: number | undefined }[]): boolean[] => jobs.map((job) => job.started !== undefined);

/** The offload workers' queue and the re-encoder's, built on one gate of `places`, as cpu-slots.ts builds them. */
function onOneGate(places: number, workerSlots = WORKERS.slots): { workers: FairQueue; reencoder: FairQueue } {
  const gate = createHeavyGate(places);
  return {
    workers: createFairQueue({ ...WORKERS, slots: workerSlots }, { heavy: gate }),
    reencoder: createFairQueue(REENCODER, { heavy: gate }),
  };
}

/** Two strangers' heavy scans on the workers, then an upload's re-encode, on one gate. */
async function twoScansThenAnUpload(places: number, workerSlots?: number) {
  const { workers, reencoder } = onOneGate(places, workerSlots);
  const scans = [heldJob(), heldJob()];
  const scansDone = scans.map((job, index) => workers.run(`ip:scanner-${index}`, 20_000, job.start, { heavy: true }));
  const image = heldJob();
  const imageDone = reencode(reencoder, image);
  await Promise.resolve();
  return { scans, scansDone, image, imageDone };
}

/** An upload's re-encode: always heavy. */
const reencode = (reencoder: FairQueue, image: HeldJob): Promise<void> =>
  reencoder.run('account:uploader', 20_000, image.start, { heavy: true });

describe('the heavy gate', () => {
  it('heavySlots: all slots but one, and at least one', () => {
    expect([1, 2, 3, 8].map(heavySlots)).toEqual([1, 1, 2, 7]);
  });

  it("a re-encode waits while a heavy scan holds the gate's one place, though the re-encoder's own slot is free", async () => {
    const { workers, reencoder } = onOneGate(1);
    const scan = heldJob();
    const image = heldJob();
    const scanDone = workers.run('ip:scanner', 20_000, scan.start, { heavy: true });
    const imageDone = reencode(reencoder, image);
    await Promise.resolve();
    expect(started([scan, image])).toEqual([true, false]);
    scan.finish();
    await scanDone;
    await vi.waitFor(() => expect(image.started).toBeDefined());
    image.finish();
    await imageDone;
  });

  it('light jobs are not held by the gate: an ordinary parse runs beside a re-encode', async () => {
    const { workers, reencoder } = onOneGate(1);
    const image = heldJob();
    const imageDone = reencode(reencoder, image);
    await expect(workers.run('account:reader', 20_000, async () => 'parsed')).resolves.toBe('parsed');
    expect(image.started).toBeDefined();
    image.finish();
    await imageDone;
  });

  it('a freed place goes to the other queue first: a flood of heavy scans cannot keep a re-encode waiting behind each next scan', async () => {
    const { scans, scansDone, image, imageDone } = await twoScansThenAnUpload(1);
    expect(started([...scans, image])).toEqual([true, false, false]);
    scans[0]?.finish();
    await scansDone[0];
    await vi.waitFor(() => expect(image.started).toBeDefined());
    expect(scans[1]?.started).toBeUndefined();
    image.finish();
    await imageDone;
    await vi.waitFor(() => expect(scans[1]?.started).toBeDefined());
    scans[1]?.finish();
    await scansDone[1];
  });

  it('a freed place is not offered at once: a light job runs meanwhile, and the waiting re-encode starts after the rest', async () => {
    const { workers, reencoder } = onOneGate(1);
    const scan = heldJob();
    const scanDone = workers.run('ip:scanner', 20_000, scan.start, { heavy: true });
    const image = heldJob();
    const imageDone = reencode(reencoder, image);
    // Held 300 ms, with the re-encode waiting: the place rests 600 ms.
    await new Promise((resolve) => setTimeout(resolve, 300));
    scan.finish();
    await scanDone;
    await expect(workers.run('account:reader', 20_000, async () => 'parsed')).resolves.toBe('parsed');
    expect(image.started).toBeUndefined();
    await vi.waitFor(() => expect(image.started).toBeDefined(), { timeout: 5_000 });
    image.finish();
    await imageDone;
  });

  it('with a heavy job waiting, the rest is the share of the time held: 1,000 ms held frees the place 2,000 ms later, the other queues first', () => {
    vi.useFakeTimers();
    try {
      const gate = createHeavyGate(1);
      const pumped: string[] = [];
      gate.join({ pump: () => pumped.push('other'), heavyWaiting: () => true });
      gate.take();
      gate.release(() => pumped.push('own'), 1_000);
      vi.advanceTimersByTime(1_000 * HEAVY_REST_SHARE - 1);
      expect([gate.hasRoom(), pumped]).toEqual([false, []]);
      vi.advanceTimersByTime(1);
      expect([gate.hasRoom(), pumped]).toEqual([true, ['other', 'own']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with no heavy job waiting, or no rest, a place frees at once', () => {
    const cases = [
      { gate: createHeavyGate(1), waiting: false },
      { gate: createHeavyGate(1, 0), waiting: true },
    ];
    for (const { gate, waiting } of cases) {
      const pumped: string[] = [];
      gate.join({ pump: () => pumped.push('other'), heavyWaiting: () => waiting });
      gate.take();
      expect(gate.hasRoom()).toBe(false);
      gate.release(() => pumped.push('own'), 1_000);
      expect([gate.hasRoom(), pumped]).toEqual([true, ['other', 'own']]);
    }
  });

  it("one caller's heavy jobs one after another never wait for a rest: nothing else waited for the place", async () => {
    const { workers } = onOneGate(1);
    const first = heldJob();
    const firstDone = workers.run('account:author', 20_000, first.start, { heavy: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.finish();
    await firstDone;
    // Held 300 ms: with a rest the next heavy job would wait 600 ms for the place.
    const second = heldJob();
    const secondDone = workers.run('account:author', 20_000, second.start, { heavy: true });
    await Promise.resolve();
    expect(second.started).toBeDefined();
    second.finish();
    await secondDone;
  });

  it('a gate of two places runs two heavy jobs across the queues, never a third', async () => {
    const { scans, scansDone, image, imageDone } = await twoScansThenAnUpload(2, 3);
    expect(started([...scans, image])).toEqual([true, true, false]);
    scans[1]?.finish();
    await scansDone[1];
    await vi.waitFor(() => expect(image.started).toBeDefined());
    scans[0]?.finish();
    image.finish();
    await Promise.all([scansDone[0], imageDone]);
  });
});
