// The table's stream -> the stream function. Only the records it acts on invoke it (the filter
// patterns live beside the code that reads the records, handlers/stream-records.ts): without
// them every rate-window bump and op record of every call would cost an invocation.
// A record that keeps failing is retried alone (partial batch responses, bisection), then its
// metadata goes to the DLQ; the sweeper's dispatcher re-delivers outbox events from the table.
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { FILTER_PATTERNS } from '../handlers/stream-records.ts';

export const STREAM_SOURCE = {
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(1),
  retryAttempts: 5,
  maxRecordAge: Duration.hours(6),
} as const;

export function connectStream(scope: Construct, table: ITable, fn: IFunction): Queue {
  const dlq = new Queue(scope, 'StreamFailures', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: STREAM_SOURCE.batchSize,
      maxBatchingWindow: STREAM_SOURCE.maxBatchingWindow,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: STREAM_SOURCE.retryAttempts,
      maxRecordAge: STREAM_SOURCE.maxRecordAge,
      onFailure: new SqsDlq(dlq),
      filters: FILTER_PATTERNS.map((pattern) => FilterCriteria.filter(pattern)),
    }),
  );
  return dlq;
}
