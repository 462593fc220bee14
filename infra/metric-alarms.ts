// Alarms on the application's own metrics (docs/metrics.md), beside the function alarms
// (alarms.ts) and on the same topic: a bug answered 500 through the error renderer never
// reaches the functions' Errors metric, so the 5xx rate is read from the answers themselves.
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { appMetric, serverErrorRate } from './app-metrics.ts';

/** 5xx answers, % of all answers in 5 minutes: at low traffic one bug's 500 is enough, as one function error is. */
export const SERVER_ERROR_RATE_ALARM_PERCENT = 1;
/** Failed announcement attempts in 5 minutes: one is retried on its backoff; several mean Bluesky or the account is in trouble. */
export const ANNOUNCE_FAILURES_ALARM = 3;
/** The announce queue's earliest due entry still unsettled after this long: announcing is stuck. */
export const OUTBOX_AGE_ALARM = Duration.minutes(15);

export function createMetricAlarms(scope: Construct, topic: ITopic): void {
  const alarm = (id: string, metric: IMetric, threshold: number, description: string): void => {
    new Alarm(scope, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    }).addAlarmAction(new SnsAction(topic));
  };
  alarm(
    'Http5xxRate',
    serverErrorRate(),
    SERVER_ERROR_RATE_ALARM_PERCENT,
    `lorebook answered ${SERVER_ERROR_RATE_ALARM_PERCENT}% or more of its requests with a 5xx in 5 minutes (the http function's logs say which: "unexpected error")`,
  );
  alarm(
    'AnnounceFailures',
    appMetric('AnnounceFailures'),
    ANNOUNCE_FAILURES_ALARM,
    `lorebook: ${ANNOUNCE_FAILURES_ALARM} or more Bluesky announcement attempts failed in 5 minutes (the stream and sweeper logs say why; docs/deploy.md)`,
  );
  alarm(
    'OutboxAge',
    appMetric('OutboxAgeSeconds', {}, 'Maximum'),
    OUTBOX_AGE_ALARM.toSeconds(),
    `lorebook: a story has waited on the announce queue ${OUTBOX_AGE_ALARM.toMinutes()} minutes past its due time (npm run sweep -- --aws shows why)`,
  );
}
