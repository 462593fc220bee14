// The metric alarms and the dashboard in the synthesized template, checked against what the EMF
// sink really writes: each alarm's namespace, metric name and dimensions are found in the EMF
// lines Powertools prints for the same counts, so a renamed metric or dimension cannot leave an
// alarm watching a series nobody writes.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { emfMetrics } from '../../../../src/metrics/emf-metrics.ts';
import { logicalId, resourcesOf, synthesize } from '../synth.ts';

const { json } = synthesize({});
const ALARM = 'AWS::CloudWatch::Alarm';
const alarm = (prefix: string): Record<string, unknown> =>
  json.Resources[logicalId(json, ALARM, prefix)]?.Properties as Record<string, unknown>;

interface MetricStat {
  Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: string }[] };
}
/** A series as CloudWatch keys it: namespace, name and dimension values, in a stable form. */
const seriesKey = (namespace: string, name: string, dimensions: Record<string, string>): string =>
  JSON.stringify([namespace, name, Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b))]);

/** Every series the EMF lines name: one per metric per dimension set. */
let written: Set<string>;
beforeAll(async () => {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  const sink = emfMetrics(() => undefined);
  for (const statusClass of ['2xx', '3xx', '4xx', '5xx']) sink.count('Requests', { Surface: 'v1', StatusClass: statusClass });
  sink.count('AnnounceFailures');
  sink.count('AnnounceAttempts');
  sink.count('Publishes');
  sink.count('Reports');
  sink.count('Refusals', { Code: 'rate_limited' });
  sink.count('ModerationActions', { Kind: 'quarantine' });
  sink.gauge('OutboxAgeSeconds', 1200);
  await sink.flush();
  vi.restoreAllMocks();
  written = new Set(
    lines
      .join('')
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .flatMap((line) => {
        const emf = JSON.parse(line) as Record<string, unknown> & {
          _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
        };
        return emf._aws.CloudWatchMetrics.flatMap(({ Namespace, Dimensions, Metrics }) =>
          Metrics.flatMap(({ Name }) =>
            Dimensions.map((set) => seriesKey(Namespace, Name, Object.fromEntries(set.map((name) => [name, String(emf[name])])))),
          ),
        );
      }),
  );
});
afterEach(() => vi.restoreAllMocks());

/** The series an alarm reads (each metric of its math, or its one metric). */
function alarmSeries(props: Record<string, unknown>): string[] {
  const stats =
    props.Metrics === undefined
      ? [{ Metric: { Namespace: props.Namespace, MetricName: props.MetricName, Dimensions: props.Dimensions } } as MetricStat]
      : (props.Metrics as { MetricStat?: MetricStat }[]).flatMap((metric) => (metric.MetricStat === undefined ? [] : [metric.MetricStat]));
  return stats.map(({ Metric }) =>
    seriesKey(Metric.Namespace, Metric.MetricName, Object.fromEntries(Metric.Dimensions.map(({ Name, Value }) => [Name, Value]))),
  );
}

describe('alarms on the application metrics', () => {
  it('the 5xx rate alarm reads the Requests rollup by status class that the http function writes, at 1% of answers in 5 minutes', () => {
    const props = alarm('Http5xxRate');
    const series = alarmSeries(props);
    expect(series).toHaveLength(4);
    for (const one of series) expect(written, one).toContain(one);
    const expression = (props.Metrics as { Expression?: string }[]).find((metric) => metric.Expression !== undefined)?.Expression;
    expect(expression).toContain('100 * FILL(e5xx, 0)');
    expect(props).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
  });

  it('the announce failure and outbox age alarms read series the EMF sink writes, and all three notify the alarm topic', () => {
    const failures = alarm('AnnounceFailures');
    const age = alarm('OutboxAge');
    for (const props of [failures, age]) for (const one of alarmSeries(props)) expect(written, one).toContain(one);
    expect(failures).toMatchObject({ Statistic: 'Sum', Threshold: 3, Period: 300 });
    expect(age).toMatchObject({ Statistic: 'Maximum', Threshold: 900, Period: 300 });
    const topic = { Ref: logicalId(json, 'AWS::SNS::Topic', 'AlarmTopic') };
    for (const props of [alarm('Http5xxRate'), failures, age]) expect(props.AlarmActions).toEqual([topic]);
  });
});

/** The dashboard's widgets, its tokens (function names, the region) left as placeholders. */
function dashboardWidgets(): { properties: { title: string; metrics: unknown[][] } }[] {
  const dashboards = resourcesOf(json, 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  const [, parts] = (dashboards[0]?.[1].Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'token')).join('')).widgets;
}

/** The metric name and the dimension names a SEARCH expression asks for: `{lorebook,service,Code} MetricName="Refusals"`. */
function searched(expression: string): { name: string; dimensions: string[] } {
  const [, schema, name] = /SEARCH\('\{([^}]*)\} MetricName="([^"]+)"/.exec(expression) ?? [];
  const [, ...dimensions] = String(schema).split(',');
  return { name: String(name), dimensions: dimensions.sort() };
}

describe('the dashboard', () => {
  const widgets = dashboardWidgets();

  it('graphs answers, the 5xx rate, refusals by code, rate limits, writes, announcements, the outbox age, moderation and the functions', () => {
    expect(widgets.map((widget) => widget.properties.title)).toEqual([
      'Answers by status class',
      '5xx answers, % of all',
      'Answers by surface and status class',
      'Refusals by error code',
      'Rate-limit refusals',
      'Publishes and reports',
      'Announce attempts and failures',
      'Outbox age (s), the announce queue',
      'Moderation actions by kind',
      'Function errors',
      'Function throttles',
      'Function duration p99 (ms)',
    ]);
    expect(json.Outputs).toHaveProperty('DashboardName');
  });

  it('every lorebook series it graphs, and every search it runs, names a series the EMF sink writes', () => {
    const lines = widgets.flatMap((widget) => widget.properties.metrics);
    const series = lines.filter((line) => line[0] === 'lorebook');
    expect(series.length).toBeGreaterThan(8);
    for (const [namespace, name, ...rest] of series) {
      const pairs = rest.filter((part) => typeof part === 'string') as string[];
      const dimensions = Object.fromEntries(pairs.flatMap((part, index) => (index % 2 === 0 ? [[part, String(pairs[index + 1])]] : [])));
      const key = seriesKey(String(namespace), String(name), dimensions);
      expect(written, key).toContain(key);
    }
    const searches = lines.flatMap((line) => {
      const expression = (line[0] as { expression?: string }).expression;
      return expression?.startsWith('SEARCH(') ? [searched(expression)] : [];
    });
    expect(searches.map((search) => search.name)).toEqual(['Requests', 'Refusals', 'ModerationActions']);
    const writtenSchemas = [...written].map((key) => {
      const [, name, pairs] = JSON.parse(key) as [string, string, [string, string][]];
      return JSON.stringify({ name, dimensions: pairs.map(([dimension]) => dimension).sort() });
    });
    for (const search of searches) expect(writtenSchemas).toContain(JSON.stringify(search));
  });
});
