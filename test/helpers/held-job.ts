// A job for the fair queue (src/offload/fair-queue.ts) that the test finishes by hand; `started`
// records the budget it was given, undefined while it waits.
export interface HeldJob {
  started: number | undefined;
  finish(): void;
  start(remainingMs: number): Promise<void>;
}

export function heldJob(): HeldJob {
  let finish: () => void = () => {};
  const job: HeldJob = {
    started: undefined,
    finish: () => finish(),
    start: (remainingMs) =>
      new Promise<void>((resolve) => {
        job.started = remainingMs;
        finish = resolve;
      }),
  };
  return job;
}
