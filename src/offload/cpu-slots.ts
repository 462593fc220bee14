// The process's CPU-heavy slots, built once from the settings (docs/design.md#fair-cpu): the offload
// workers (parsing, scanning, rendering) and the image re-encoder, shared among callers by the
// same rules and charged to the same per-caller minute of CPU; and the search index's turns,
// shared by the same rules but not charged (below).
import { type CpuAllowance, type CpuWindows, createCpuWindows } from './cpu-windows.ts';
import { createFairQueue, type FairQueue, type FairShare, type SlotNames } from './fair-queue.ts';
import { createOffload, DEFAULT_OFFLOAD_SHARE, defaultWorkers, type Offload, sharedOffload } from './offload.ts';

export interface CpuSlots {
  offload: Offload;
  /**
   * Image re-encodes: one at a time (a 12-megapixel photo holds ~200 MB of buffers while it is
   * scaled), each a heavy job in the same places as the workers' heavy jobs (heavy-gate.ts).
   */
  reencodes: FairQueue;
  /**
   * The search index's questions (search_stories, suggest_for_project, a publish's `similar`):
   * one at a time, as the index answers them, in turn among callers, so one caller's stream of
   * searches (each ~0.3 s at 100,000 stories) cannot keep everyone else's waiting. Not charged
   * to the CPU minute: the first question after a start holds the index while it loads, which
   * is the process's work, not the caller's.
   */
  search: FairQueue;
  /**
   * What each caller has spent of its minute, asked before work it would be charged for is even
   * begun (an image upload's body is read only while the account's minute has room). Undefined
   * where nothing is charged (the shared slots of tests and commands).
   */
  minutes?: CpuWindows;
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

/**
 * The search index's turns: one question at a time, one per caller, the others waiting as the
 * workers' do. A caller waits for its answer as long as for its turn: the first question after a
 * start loads the whole index (24–88 s at 100,000 stories under `npm start`), and its caller (a
 * search, or a publish's `similar`) is answered before then, the load going on in its turn.
 */
const searchShare = (settings: CpuSettings): FairShare => ({
  slots: 1,
  perCaller: 1,
  perCallerWaiting: settings.perCallerWaiting,
  maxWaiting: settings.maxWaiting,
  maxWaitMs: settings.maxWaitMs,
  answerWaitMs: settings.maxWaitMs,
});

const SEARCH_INDEX: SlotNames = {
  cpu_share: 'your share of the search index is in use',
  cpu_queue_full: "the search index's queue is full",
  cpu_wait: 'the search index did not come free in time',
  answer_wait: 'the search index did not answer in time (after a start, its first question loads it whole)',
};

const searchQueue = (settings: CpuSettings): FairQueue => createFairQueue(searchShare(settings), { names: SEARCH_INDEX });

export function createCpuSlots(settings: CpuSettings): CpuSlots {
  const costs = createCpuWindows(settings);
  const offload = createOffload({ share: { ...settings, slots: settings.workers }, costs });
  return {
    offload,
    reencodes: createFairQueue(reencodeShare(settings), { costs, heavy: offload.heavy }),
    search: searchQueue(settings),
    minutes: costs,
  };
}

let shared: CpuSlots | undefined;

/** Where no AppContext carries slots (a test's context, a command): the process's workers, default shares. */
export function sharedCpuSlots(): CpuSlots {
  if (shared === undefined) {
    const offload = sharedOffload();
    shared = {
      offload,
      reencodes: createFairQueue(reencodeShare(defaultCpuSettings()), { heavy: offload.heavy }),
      search: searchQueue(defaultCpuSettings()),
    };
  }
  return shared;
}
