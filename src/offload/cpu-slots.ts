// The process's CPU-heavy slots, built once from the settings (docs/design.md#fair-cpu): the offload
// workers (parsing, scanning, rendering) and the image re-encoder, shared among callers by the
// same rules and charged to the same per-caller minute of CPU.
import { type CpuAllowance, createCpuWindows } from './cpu-windows.ts';
import { createFairQueue, type FairQueue, type FairShare } from './fair-queue.ts';
import { createOffload, DEFAULT_OFFLOAD_SHARE, defaultWorkers, type Offload, sharedOffload } from './offload.ts';

export interface CpuSlots {
  offload: Offload;
  /**
   * Image re-encodes: one at a time (a 12-megapixel photo holds ~200 MB of buffers while it is
   * scaled), each a heavy job in the same places as the workers' heavy jobs (heavy-gate.ts).
   */
  reencodes: FairQueue;
}

export interface CpuSettings extends Omit<FairShare, 'slots'>, CpuAllowance {
  /** Offload workers. */
  workers: number;
}

export const defaultCpuSettings = (): CpuSettings => ({
  workers: defaultWorkers(),
  ...DEFAULT_OFFLOAD_SHARE,
  accountMsPerMinute: 30_000,
  anonymousMsPerMinute: 5_000,
});

/** A re-encode queue: one slot, one upload per account at a time and none waiting behind it. */
const reencodeShare = (settings: CpuSettings): FairShare => ({
  slots: 1,
  perCaller: 1,
  perCallerWaiting: 0,
  maxWaiting: settings.maxWaiting,
  maxWaitMs: settings.maxWaitMs,
});

export function createCpuSlots(settings: CpuSettings): CpuSlots {
  const costs = createCpuWindows(settings);
  const offload = createOffload({ share: { ...settings, slots: settings.workers }, costs });
  return { offload, reencodes: createFairQueue(reencodeShare(settings), { costs, heavy: offload.heavy }) };
}

let shared: CpuSlots | undefined;

/** Where no AppContext carries slots (a test's context, a command): the process's workers, default shares. */
export function sharedCpuSlots(): CpuSlots {
  if (shared === undefined) {
    const offload = sharedOffload();
    shared = { offload, reencodes: createFairQueue(reencodeShare(defaultCpuSettings()), { heavy: offload.heavy }) };
  }
  return shared;
}
