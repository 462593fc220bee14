// Alarms that mean someone should look: any function error or throttle (5-minute windows), any
// message in the stream DLQ (a record retried until it gave up), and a stream falling behind
// (notifications and announcements late by minutes). They notify one SNS topic;
// `-c alarmEmail=you@example.com` subscribes an address to it.
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

const PERIOD = Duration.minutes(5);
/** Records this old when read mean the stream function is stuck or far behind. */
export const STREAM_LAG_ALARM = Duration.minutes(5);

export interface AlarmTargets {
  functions: Record<string, IFunction>;
  streamFunction: IFunction;
  dlq: IQueue;
  email: string | undefined;
}

export function createAlarms(scope: Construct, { functions, streamFunction, dlq, email }: AlarmTargets): Topic {
  const topic = new Topic(scope, 'AlarmTopic', { displayName: 'lorebook alarms' });
  if (email !== undefined) topic.addSubscription(new EmailSubscription(email));
  const alarm = (id: string, metric: IMetric, description: string, threshold = 1): void => {
    new Alarm(scope, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    }).addAlarmAction(new SnsAction(topic));
  };
  for (const [name, fn] of Object.entries(functions)) {
    alarm(
      `${name}Errors`,
      fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
      `lorebook ${name} function: invocations ended in an error (CloudWatch Logs say which)`,
    );
    alarm(
      `${name}Throttles`,
      fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
      `lorebook ${name} function: invocations throttled (account concurrency reached)`,
    );
  }
  alarm(
    'StreamLag',
    streamFunction.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' }),
    `lorebook stream function: records waited longer than ${STREAM_LAG_ALARM.toMinutes()} minutes (stuck on a failing record, or throttled)`,
    STREAM_LAG_ALARM.toMilliseconds(),
  );
  alarm(
    'StreamDlqDepth',
    dlq.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
    'lorebook stream records gave up after their retries and are in the DLQ; the sweeper re-delivers outbox events, see docs/deploy.md',
  );
  return topic;
}
