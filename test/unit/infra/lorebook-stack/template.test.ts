// Assertions on the synthesized CloudFormation template of infra/ (no AWS needed): the table
// matches the schema source, each function's runtime and sizing, least-privilege IAM, the stream
// wiring, the schedule and the alarms.
import { describe, expect, it } from 'vitest';
import { UNSET_APP_PASSWORD } from '../../../../handlers/bluesky-secret.ts';
import { FILTER_PATTERNS } from '../../../../handlers/stream-records.ts';
import { createTableInput, TTL_ATTRIBUTE } from '../../../../src/store/schema.ts';
import { actionsOf, logicalId, resourcesOf, roleStatements, type Statement, synthesize } from '../synth.ts';

const { json, template } = synthesize({ blueskyIdentifier: 'lorebook.example.com', alarmEmail: 'ops@example.com' });
const FUNCTION = 'AWS::Lambda::Function';
const ids = {
  http: logicalId(json, FUNCTION, 'Http'),
  stream: logicalId(json, FUNCTION, 'Stream'),
  sweeper: logicalId(json, FUNCTION, 'Sweeper'),
};
const tableId = logicalId(json, 'AWS::DynamoDB::Table', 'Table');
const table = json.Resources[tableId]?.Properties as Record<string, unknown>;
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
const indexArn = { 'Fn::Join': ['', [tableArn, '/index/*']] };
const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };

const byName = <T extends { AttributeName?: string; IndexName?: string }>(list: T[]): T[] =>
  [...list].sort((a, b) => String(a.AttributeName ?? a.IndexName).localeCompare(String(b.AttributeName ?? b.IndexName)));

/** Actions granted on `resource`, sorted. */
function granted(statements: Statement[], resource: unknown): string[] {
  return statements
    .filter((statement) => statement.Effect === 'Allow' && JSON.stringify(statement.Resource) === JSON.stringify(resource))
    .flatMap(actionsOf)
    .sort();
}

describe('the table matches src/store/schema.ts', () => {
  const schema = createTableInput('ignored');

  it("has the schema's key schema, attribute definitions and GSIs (keys-only)", () => {
    expect(table.KeySchema).toEqual(schema.KeySchema);
    expect(byName(table.AttributeDefinitions as { AttributeName: string }[])).toEqual(byName(schema.AttributeDefinitions ?? []));
    const indexes = byName(table.GlobalSecondaryIndexes as { IndexName: string }[]);
    expect(indexes).toEqual(
      byName(schema.GlobalSecondaryIndexes ?? []).map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection })),
    );
    expect(indexes.map((index) => index.IndexName)).toEqual(['GSI1', 'GSI2', 'GSI3']);
  });

  it('is on-demand, with the stream the schema enables, TTL on expires_at, point-in-time recovery, and kept when the stack goes', () => {
    expect(table.BillingMode).toBe(schema.BillingMode);
    expect(table.StreamSpecification).toEqual({ StreamViewType: schema.StreamSpecification?.StreamViewType });
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 });
    expect(json.Resources[tableId]?.DeletionPolicy).toBe('Retain');
  });
});

describe('the three functions', () => {
  it('are exactly http, stream and sweeper, on nodejs22.x arm64, with the sizes the stack states', () => {
    expect(resourcesOf(json, FUNCTION)).toHaveLength(3);
    const expected = { http: [1024, 30], stream: [512, 120], sweeper: [512, 120] } as const;
    for (const [name, [memory, timeout]] of Object.entries(expected)) {
      const props = json.Resources[ids[name as keyof typeof ids]]?.Properties;
      expect(props, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: memory,
        Timeout: timeout,
        Handler: 'index.handler',
      });
    }
  });

  it('know the table by name, and only stream and sweeper know the Bluesky account and where its password is', () => {
    const env = (name: keyof typeof ids) =>
      (json.Resources[ids[name]]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    for (const name of ['http', 'stream', 'sweeper'] as const) expect(env(name).LOREBOOK_TABLE).toEqual({ Ref: tableId });
    const secretId = logicalId(json, 'AWS::SecretsManager::Secret', 'BlueskyAppPassword');
    for (const name of ['stream', 'sweeper'] as const) {
      expect(env(name)).toMatchObject({
        BLUESKY_SERVICE: 'https://bsky.social',
        BLUESKY_IDENTIFIER: 'lorebook.example.com',
        LOREBOOK_BLUESKY_SECRET_ID: { Ref: secretId },
      });
      expect(env(name).BLUESKY_APP_PASSWORD).toBeUndefined();
    }
    expect(Object.keys(env('http')).filter((key) => key.startsWith('BLUESKY') || key.includes('SECRET'))).toEqual([]);
  });

  it('without a Bluesky account, no function is configured to announce', () => {
    const quiet = synthesize().json;
    for (const [, fn] of resourcesOf(quiet, FUNCTION)) {
      expect(Object.keys((fn.Properties.Environment as { Variables: object }).Variables)).not.toContain('BLUESKY_IDENTIFIER');
    }
  });

  it('the http function has a public Function URL (the app does its own bearer auth)', () => {
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: { 'Fn::GetAtt': [ids.http, 'Arn'] },
    });
  });

  it('the secret is created with the placeholder the handlers treat as "announcing off"', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', { SecretString: UNSET_APP_PASSWORD });
  });
});

describe('least-privilege IAM: each function gets only the table actions it uses', () => {
  it('http: item reads and writes, Query, ConditionCheckItem (transactions), Query on the indexes; nothing else', () => {
    const statements = roleStatements(json, ids.http);
    expect(granted(statements, tableArn)).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(granted(statements, indexArn)).toEqual(['dynamodb:Query']);
    // Besides the table, only the image bucket's objects and the search snapshots (image- and search-bucket-stack.test.ts).
    expect(statements.flatMap(actionsOf).sort()).toEqual(
      [...granted(statements, tableArn), 'dynamodb:Query', 's3:GetObject', 's3:PutObject', 's3:GetObject'].sort(),
    );
  });

  it('stream: the fan-out and announce actions, Query on the table only (the runtime settings), stream reading, the DLQ and the secret; no Scan', () => {
    const statements = roleStatements(json, ids.stream);
    expect(granted(statements, tableArn)).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(granted(statements, indexArn)).toEqual([]);
    expect(granted(statements, streamArn)).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']);
    // The event source mapping's own grant (Table.grantStreamRead): listing stream ARNs has no table-level resource.
    expect(granted(statements, '*')).toEqual(['dynamodb:ListStreams']);
    expect(granted(statements, { Ref: logicalId(json, 'AWS::SecretsManager::Secret', 'BlueskyAppPassword') })).toEqual([
      'secretsmanager:GetSecretValue',
    ]);
    expect(granted(statements, { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'StreamFailures'), 'Arn'] })).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    // ...and GetObject on the image bucket's objects, for the link card's thumbnail.
    expect(statements.flatMap(actionsOf)).toHaveLength(15);
  });

  it("sweeper: the stream function's item actions plus Query on the table (outbox) and the indexes (announce queue), Scan on the table (the capability re-scan's walk), and the secret", () => {
    const statements = roleStatements(json, ids.sweeper);
    expect(granted(statements, tableArn)).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:UpdateItem',
    ]);
    expect(granted(statements, indexArn)).toEqual(['dynamodb:Query']);
    expect(
      statements
        .flatMap(actionsOf)
        .filter((action) => !action.startsWith('dynamodb:'))
        .sort(),
    ).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:GetObject', 's3:PutObject', 'secretsmanager:GetSecretValue']);
  });

  it('no statement anywhere uses a wildcard action, BatchWriteItem or table management, and only the sweeper may Scan', () => {
    const all = resourcesOf(json, 'AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement.flatMap(actionsOf),
    );
    expect(
      all.filter((action) => action.includes('*') || /BatchWriteItem|Table|DeleteTable|CreateTable|DescribeTimeToLive/.test(action)),
    ).toEqual([]);
    // The capability re-scan walks every story's META, one bounded page a minute; nothing else reads the whole table.
    expect(all.filter((action) => /Scan/.test(action))).toEqual(['dynamodb:Scan']);
    expect(granted(roleStatements(json, ids.sweeper), tableArn)).toContain('dynamodb:Scan');
  });
});

describe('the stream source', () => {
  it('reports partial batch failures, bisects, retries a bounded number of times, then sends to the SQS DLQ; only records the handler acts on invoke it', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: ids.stream },
      EventSourceArn: streamArn,
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      BatchSize: 100,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'StreamFailures'), 'Arn'] } } },
      FilterCriteria: { Filters: FILTER_PATTERNS.map((pattern) => ({ Pattern: JSON.stringify(pattern) })) },
    });
    expect(FILTER_PATTERNS.map((pattern) => JSON.stringify(pattern))).toEqual([
      '{"eventName":["INSERT"],"dynamodb":{"Keys":{"PK":{"S":["OUTBOX"]}}}}',
      // Each account deletion step moves its event: the record that runs the next step (design.md#account-deletion).
      '{"eventName":["MODIFY"],"dynamodb":{"Keys":{"PK":{"S":["OUTBOX"]},"SK":{"S":[{"prefix":"account-deletion#"}]}}}}',
      '{"eventName":["INSERT","MODIFY"],"dynamodb":{"Keys":{"SK":{"S":["META"]}},"NewImage":{"GSI3PK":{"S":[{"exists":true}]}}}}',
      // The search change log: any change to a story's META or BODY.
      '{"eventName":["INSERT","MODIFY","REMOVE"],"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"STORY#"}]},"SK":{"S":["META","BODY"]}}}}',
    ]);
  });
});

describe('the schedule', () => {
  it('an EventBridge rule invokes the sweeper every minute, without retries', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [{ Arn: { 'Fn::GetAtt': [ids.sweeper, 'Arn'] }, Id: 'Target0', RetryPolicy: { MaximumRetryAttempts: 0 } }],
    });
  });
});

describe('the alarms', () => {
  const alarms = resourcesOf(json, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
  const topicId = logicalId(json, 'AWS::SNS::Topic', 'AlarmTopic');

  it('each function alarms on any error and any throttle; the DLQ on any visible message; the stream on 5 minutes of lag; all notify the topic', () => {
    // And three on the application metrics (metrics-stack.test.ts).
    expect(alarms).toHaveLength(11);
    for (const id of Object.values(ids)) {
      for (const metric of ['Errors', 'Throttles']) {
        expect(alarms, `${id} ${metric}`).toContainEqual(
          expect.objectContaining({
            Namespace: 'AWS/Lambda',
            MetricName: metric,
            Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }],
            Threshold: 1,
            ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          }),
        );
      }
    }
    expect(alarms).toContainEqual(
      expect.objectContaining({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(json, 'AWS::SQS::Queue', 'StreamFailures'), 'QueueName'] } }],
        Threshold: 1,
      }),
    );
    expect(alarms).toContainEqual(
      expect.objectContaining({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: ids.stream } }],
        Threshold: 300_000,
      }),
    );
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
  });
});
