// The metrics sink under `npm start`: the same counters as on Lambda (docs/metrics.md), added up
// in memory and written as one log line per interval — only when something moved since the last
// line, so an idle server stays quiet.
import type { Dimensions, MetricsSink } from '../app/context/metrics.ts';

export interface CounterLog extends MetricsSink {
  /** Stops the timer and writes what was counted since the last line. */
  stop(): void;
}

/** `Requests{Surface=v1,StatusClass=2xx}`, or the bare name without dimensions. */
const keyOf = (name: string, dimensions: Dimensions): string => {
  const pairs = Object.entries(dimensions).map(([dimension, value]) => `${dimension}=${value}`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(',')}}`;
};

export function startCounterLog(options: { intervalMs: number; log: (line: string) => void }): CounterLog {
  let counts = new Map<string, number>();
  const writeLine = (): void => {
    if (counts.size === 0) return;
    const moved = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => `${key}=${value}`);
    counts = new Map();
    options.log(`lorebook: metrics, last ${options.intervalMs / 1000} s: ${moved.join(' ')}`);
  };
  const timer = setInterval(writeLine, options.intervalMs);
  timer.unref();
  return {
    count(name, dimensions = {}) {
      const key = keyOf(name, dimensions);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    gauge(name, value) {
      counts.set(name, value);
    },
    stop() {
      clearInterval(timer);
      writeLine();
    },
  };
}
