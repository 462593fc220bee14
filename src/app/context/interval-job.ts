// A job `npm start` runs at start and then every interval, as a scheduled Lambda does in the cloud:
// never two runs at once in this process (a tick while one runs is skipped, not queued), and
// stop() ends the timer and waits for the run in progress. The run catches its own failures.
export interface IntervalJob {
  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void>;
}

/** `run` is told whether stop() was called, so a run that loops can end early. */
export function startIntervalJob(intervalMs: number, run: (stopped: () => boolean) => Promise<void>): IntervalJob {
  let stopped = false;
  let running: Promise<void> | undefined;
  const tick = (): void => {
    if (stopped || running !== undefined) return;
    running = run(() => stopped).finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
