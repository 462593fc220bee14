// The metrics sink on Lambda: CloudWatch Embedded Metric Format lines on stdout, written by
// Powertools' Metrics; CloudWatch Logs turns each line into data points in the `lorebook`
// namespace (docs/metrics.md). What a request counts is summed here and written by flush(), which
// each handler awaits before it answers: Lambda may freeze the process right after.
// @NOTE Powertools loads at the first flush, not at the cold start: bundled it is ~16 KB, more than
// the http function's start bound leaves (BENCHMARKS.md §14).
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { type CounterName, type Dimensions, type GaugeName, type MetricsSink, ROLLUPS } from '../app/context/metrics.ts';

export const METRICS_NAMESPACE = 'lorebook';
/** Powertools puts a `service` dimension on every metric; the alarms name it too. */
export const METRICS_SERVICE = 'lorebook';

export interface EmfMetrics extends MetricsSink {
  /** Writes what was counted since the last flush: one EMF line per dimension set. Never rejects. */
  flush(): Promise<void>;
}

interface Point {
  name: CounterName | GaugeName;
  unit: 'Count' | 'Seconds';
  dimensions: Dimensions;
  value: number;
}

const only = (dimensions: Dimensions, names: readonly string[]): Dimensions =>
  Object.fromEntries(Object.entries(dimensions).filter(([name]) => names.includes(name)));

/** `log` hears a flush that failed (the library would not load, a dimension it refused). */
export function emfMetrics(log: (line: string) => void): EmfMetrics {
  /** By dimension set (as JSON), then by metric name. */
  let pending = new Map<string, Map<string, Point>>();
  let library: Promise<Metrics> | undefined;

  const put = (point: Point, add: boolean): void => {
    const set = JSON.stringify(point.dimensions);
    const points = pending.get(set) ?? new Map<string, Point>();
    pending.set(set, points);
    const before = points.get(point.name);
    points.set(point.name, { ...point, value: add && before !== undefined ? before.value + point.value : point.value });
  };

  const load = async (): Promise<Metrics> => {
    const { Metrics } = await import('@aws-lambda-powertools/metrics');
    return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
  };

  return {
    count(name, dimensions = {}) {
      put({ name, unit: 'Count', dimensions, value: 1 }, true);
      const rollup = ROLLUPS[name];
      if (rollup !== undefined) put({ name, unit: 'Count', dimensions: only(dimensions, rollup), value: 1 }, true);
    },
    gauge(name, value) {
      put({ name, unit: 'Seconds', dimensions: {}, value }, false);
    },
    async flush() {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        library ??= load();
        const metrics = await library;
        for (const points of batch.values()) {
          const [first] = points.values();
          if (first !== undefined && Object.keys(first.dimensions).length > 0) metrics.addDimensions({ ...first.dimensions });
          for (const point of points.values()) metrics.addMetric(point.name, point.unit, point.value);
          metrics.publishStoredMetrics();
        }
      } catch (error) {
        library = undefined;
        log(`lorebook: metrics not written (${String(error)})`);
      }
    },
  };
}
