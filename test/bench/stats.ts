// Small statistics for the benchmark: percentiles of one run, min/median/max across runs.

/** Nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
  runs: number;
}

/** One figure over several runs. */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? Number.NaN,
    median: percentile(sorted, 50),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    runs: sorted.length,
  };
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** "min / median / max" of a spread, each formatted. */
export function mmm(s: Spread, format: (value: number) => string): string {
  return `${format(s.min)} / **${format(s.median)}** / ${format(s.max)}`;
}

/** Runs `body` with a timer; returns its result and the elapsed milliseconds. */
export async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await body();
  return { value, ms: performance.now() - start };
}

/** Runs `count` tasks with at most `concurrency` in flight; returns each task's latency in ms. */
export async function runConcurrently(count: number, concurrency: number, task: (index: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = new Array<number>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next;
      next += 1;
      if (index >= count) return;
      const start = performance.now();
      await task(index);
      latencies[index] = performance.now() - start;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return latencies;
}
