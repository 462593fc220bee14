// Heavy jobs of every kind together (docs/design.md#fair-cpu). A heavy scan on an offload worker and
// an image re-encode each hold a core for a second or more. Each queue kept its own heavy jobs off
// its last slot, but a heavy scan and a re-encode at once still held both cores of a 2-core machine,
// and the thread serving requests waited for one (BENCHMARKS.md §11). Queues that share a gate run
// at most `limit` heavy jobs between them, and a place that frees is offered to the other queues
// before the one that freed it, so a flood of one kind cannot keep the other waiting.
// While heavy jobs wait for a place, a place rests before it frees, for a share of the time its job
// held it: a heavy job costs more CPU than its own thread's (V8's collector threads, libvips'), and
// with one place kept busy back to back the thread serving requests and the database waited for a
// core. A place with nothing waiting for it frees at once: one job, or one caller's jobs one after
// another, run at full speed on a machine that has the room.

export interface HeavyGate {
  /** Whether one more heavy job may start. */
  hasRoom(): boolean;
  take(): void;
  /**
   * Frees a place: at once when no queue has a heavy job waiting, else once it has rested `heldMs`
   * × the rest share (the time its job held it). The other queues' pumps run first, then `own`
   * (the queue that freed it).
   */
  release(own: () => void, heldMs: number): void;
  /** A queue on the gate: its pump, run when another queue frees a place, and whether it has a heavy job waiting. */
  join(queue: GateQueue): void;
}

export interface GateQueue {
  pump(): void;
  heavyWaiting(): boolean;
}

/** Heavy jobs running at once: all slots but one, where there are two or more. */
export const heavySlots = (slots: number): number => Math.max(1, slots - 1);

/**
 * Twice the time the job held the place: with heavy jobs waiting, heavy work fills at most a third
 * of its places' time. Beside the fairness bench's attacks all at once the serving thread waited
 * for a core 165–257 ms a second with it, 252–257 with a rest of the time held and 249–295 with
 * half of it (BENCHMARKS.md §11).
 */
export const HEAVY_REST_SHARE = 2;

export function createHeavyGate(limit: number, restShare = HEAVY_REST_SHARE): HeavyGate {
  let running = 0;
  const queues: GateQueue[] = [];
  const free = (own: () => void): void => {
    running -= 1;
    for (const queue of queues) if (queue.pump !== own) queue.pump();
    own();
  };
  return {
    hasRoom: () => running < limit,
    take() {
      running += 1;
    },
    release(own, heldMs) {
      const restMs = queues.some((queue) => queue.heavyWaiting()) ? heldMs * restShare : 0;
      if (restMs <= 0) {
        free(own);
        return;
      }
      // Nothing waits on the rest itself: a job waiting for the place keeps the process alive by its own timer.
      setTimeout(() => free(own), restMs).unref();
    },
    join(queue) {
      queues.push(queue);
    },
  };
}
