// The application's metrics as CloudWatch holds them (docs/metrics.md): what the functions write as
// EMF lines (src/metrics/emf-metrics.ts) in the `lorebook` namespace, with Powertools' `service`
// dimension on each. One place for the names, so the alarms and the dashboard read what is written.
import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric, SearchExpression } from 'aws-cdk-lib/aws-cloudwatch';
import type { CounterName, GaugeName } from '../src/app/context/metrics.ts';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../src/metrics/emf-metrics.ts';

export const METRICS_PERIOD = Duration.minutes(5);
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;

export function appMetric(name: CounterName | GaugeName, dimensions: Record<string, string> = {}, statistic = 'Sum'): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    statistic,
    period: METRICS_PERIOD,
  });
}

/** Answers of one status class, every surface together (the rollup the functions write for it). */
export const answers = (statusClass: (typeof STATUS_CLASSES)[number]): Metric => appMetric('Requests', { StatusClass: statusClass });

/** 5xx answers as a percentage of all answers, every surface together; 0 when nothing was answered. */
export function serverErrorRate(): MathExpression {
  const total = STATUS_CLASSES.map((statusClass) => `FILL(e${statusClass}, 0)`).join(' + ');
  return new MathExpression({
    expression: `IF((${total}) > 0, 100 * FILL(e5xx, 0) / (${total}), 0)`,
    usingMetrics: Object.fromEntries(STATUS_CLASSES.map((statusClass) => [`e${statusClass}`, answers(statusClass)])),
    label: '5xx answers, % of all',
    period: METRICS_PERIOD,
  });
}

/** Every series of a counter split by `dimensions` (surfaces, error codes, moderation kinds): for graphs, never alarms. */
export const splitBy = (name: CounterName, dimensions: readonly string[]): SearchExpression =>
  new SearchExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},service,${dimensions.join(',')}} MetricName="${name}"', 'Sum', ${METRICS_PERIOD.toSeconds()})`,
    period: METRICS_PERIOD,
  });
