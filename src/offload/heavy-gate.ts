// Heavy jobs of every kind together (docs/design.md#fair-cpu). A heavy scan on an offload worker and
// an image re-encode each hold a core for a second or more. Each queue kept its own heavy jobs off
// its last slot, but a heavy scan and a re-encode at once still held both cores of a 2-core machine,
// and the thread serving requests waited for one (BENCHMARKS.md §11). Queues that share a gate run
// at most `limit` heavy jobs between them, and a place that frees is offered to the other queues
// before the one that freed it, so a flood of one kind cannot keep the other waiting.
// A place rests before it frees, for a share of the time its job held it: a heavy job costs more
// CPU than its own thread's (V8's collector threads, libvips'), and with one place kept busy back to
// back the thread serving requests waited for a core a third of every second beside it.

export interface HeavyGate {
  /** Whether one more heavy job may start. */
  hasRoom(): boolean;
  take(): void;
  /**
   * Frees a place once it has rested `heldMs` × the rest share (the time its job held it): the
   * other queues' pumps run first, then `own` (the queue that freed it).
   */
  release(own: () => void, heldMs: number): void;
  /** A queue's pump, run when another queue frees a place. */
  join(pump: () => void): void;
}

/** Heavy jobs running at once: all slots but one, where there are two or more. */
export const heavySlots = (slots: number): number => Math.max(1, slots - 1);

/**
 * Half the time the job held the place: heavy work fills at most two thirds of its places' time.
 * Beside the fairness bench's attacks all at once, the serving thread waited 253–295 ms a second
 * for a core with it against 354–376 without (BENCHMARKS.md §11).
 */
export const HEAVY_REST_SHARE = 0.5;

export function createHeavyGate(limit: number, restShare = HEAVY_REST_SHARE): HeavyGate {
  let running = 0;
  const pumps: (() => void)[] = [];
  const free = (own: () => void): void => {
    running -= 1;
    for (const pump of pumps) if (pump !== own) pump();
    own();
  };
  return {
    hasRoom: () => running < limit,
    take() {
      running += 1;
    },
    release(own, heldMs) {
      const restMs = heldMs * restShare;
      if (restMs <= 0) {
        free(own);
        return;
      }
      // Nothing waits on the rest itself: a job waiting for the place keeps the process alive by its own timer.
      setTimeout(() => free(own), restMs).unref();
    },
    join(pump) {
      pumps.push(pump);
    },
  };
}
