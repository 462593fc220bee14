// Heavy jobs of every kind together (docs/design.md#fair-cpu). A heavy scan on an offload worker and
// an image re-encode each hold a core for a second or more. Each queue kept its own heavy jobs off
// its last slot, but a heavy scan and a re-encode at once still held both cores of a 2-core machine,
// and the thread serving requests waited for one (BENCHMARKS.md §11). Queues that share a gate run
// at most `limit` heavy jobs between them, and a place that frees is offered to the other queues
// before the one that freed it, so a flood of one kind cannot keep the other waiting.

export interface HeavyGate {
  /** Whether one more heavy job may start. */
  hasRoom(): boolean;
  take(): void;
  /** Frees a place: the other queues' pumps run first, then `own` (the queue that freed it). */
  release(own: () => void): void;
  /** A queue's pump, run when another queue frees a place. */
  join(pump: () => void): void;
}

/** Heavy jobs running at once: all slots but one, where there are two or more. */
export const heavySlots = (slots: number): number => Math.max(1, slots - 1);

export function createHeavyGate(limit: number): HeavyGate {
  let running = 0;
  const pumps: (() => void)[] = [];
  return {
    hasRoom: () => running < limit,
    take() {
      running += 1;
    },
    release(own) {
      running -= 1;
      for (const pump of pumps) if (pump !== own) pump();
      own();
    },
    join(pump) {
      pumps.push(pump);
    },
  };
}
