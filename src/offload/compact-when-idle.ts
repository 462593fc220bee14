// A heap compaction for a thread that answers questions in bursts (the search index's thread,
// search-index-thread.ts): once no question has come for `idleMs` and the heap has grown by
// `growthBytes` since its last compaction, one compacting collection (compact-heap.ts) gives the
// burst's garbage back. V8 keeps a heap it has grown until its memory reducer runs, which in that
// thread it did not: its heap held 80-110 MB for 30-50 MB live through the fairness bench's scans
// (BENCHMARKS.md §11). Compacting while questions come would hold each one up (30-100 ms a time).

export interface IdleCompactionRules {
  idleMs: number;
  growthBytes: number;
  /** The heap's committed size now, in bytes. */
  heapBytes(): number;
  /** Compacts; answers the heap's size after, or undefined where the runtime cannot (then it never tries again). */
  compact(): number | undefined;
}

export interface IdleCompaction {
  /** A question came: the idle time starts again from now. */
  busy(): void;
}

export function compactWhenIdle(rules: IdleCompactionRules): IdleCompaction {
  let compactedAt = rules.heapBytes();
  let timer: NodeJS.Timeout | undefined;
  return {
    busy() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (rules.heapBytes() - compactedAt < rules.growthBytes) return;
        compactedAt = rules.compact() ?? Number.POSITIVE_INFINITY;
      }, rules.idleMs);
      // The questions keep the thread alive, never this timer.
      timer.unref();
    },
  };
}
