// The `lorebook` dashboard (docs/metrics.md, "Reading the dashboard"): top row, what callers got
// (answers by status class, the 5xx rate against its alarm, answers by surface); then what they
// were refused and why; then the writes, the announcements with the outbox's age, and moderation;
// last, the functions' own errors and throttles.
import { Dashboard, GraphWidget, type HorizontalAnnotation, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { answers, appMetric, METRICS_PERIOD, serverErrorRate, splitBy } from './app-metrics.ts';
import { OUTBOX_AGE_ALARM, SERVER_ERROR_RATE_ALARM_PERCENT } from './metric-alarms.ts';

const WIDTH = 8;

const graph = (title: string, left: IMetric[], threshold?: HorizontalAnnotation): GraphWidget =>
  new GraphWidget({ title, left, width: WIDTH, height: 6, ...(threshold === undefined ? {} : { leftAnnotations: [threshold] }) });

export function createDashboard(scope: Construct, functions: Record<string, IFunction>): Dashboard {
  const dashboard = new Dashboard(scope, 'Dashboard');
  dashboard.addWidgets(
    graph('Answers by status class', [answers('2xx'), answers('3xx'), answers('4xx'), answers('5xx')]),
    graph('5xx answers, % of all', [serverErrorRate()], { value: SERVER_ERROR_RATE_ALARM_PERCENT, label: 'alarm' }),
    graph('Answers by surface and status class', [splitBy('Requests', ['Surface', 'StatusClass'])]),
  );
  dashboard.addWidgets(
    graph('Refusals by error code', [splitBy('Refusals', ['Code'])]),
    graph('Rate-limit refusals', [appMetric('Refusals', { Code: 'rate_limited' })]),
    graph('Publishes and reports', [appMetric('Publishes'), appMetric('Reports')]),
  );
  dashboard.addWidgets(
    graph('Announce attempts and failures', [appMetric('AnnounceAttempts'), appMetric('AnnounceFailures')]),
    graph('Outbox age (s), the announce queue', [appMetric('OutboxAgeSeconds', {}, 'Maximum')], {
      value: OUTBOX_AGE_ALARM.toSeconds(),
      label: 'alarm',
    }),
    graph('Moderation actions by kind', [splitBy('ModerationActions', ['Kind'])]),
  );
  dashboard.addWidgets(
    graph(
      'Function errors',
      Object.values(functions).map((fn) => fn.metricErrors({ period: METRICS_PERIOD, statistic: 'Sum' })),
    ),
    graph(
      'Function throttles',
      Object.values(functions).map((fn) => fn.metricThrottles({ period: METRICS_PERIOD, statistic: 'Sum' })),
    ),
    graph(
      'Function duration p99 (ms)',
      Object.values(functions).map((fn) => fn.metricDuration({ period: METRICS_PERIOD, statistic: 'p99' })),
    ),
  );
  return dashboard;
}
