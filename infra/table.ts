// The one table, built from src/store/schema.ts's createTableInput — the very input the local
// bootstrap sends to DynamoDB Local — so keys, index names, projections and the stream can
// never differ between a laptop and AWS. Added here only what DynamoDB Local has no use for:
// point-in-time recovery, and a retained table (deleting the stack must not delete the data).
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, type ProjectionType, type StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { createTableInput, TTL_ATTRIBUTE } from '../src/store/schema.ts';

/** The schema's input with the name left to CloudFormation (one stack per account and region). */
const schema = createTableInput('schema-only');

function keyAttribute(name: string | undefined): { name: string; type: AttributeType } {
  const definition = schema.AttributeDefinitions?.find((attribute) => attribute.AttributeName === name);
  if (definition === undefined || definition.AttributeType !== 'S') throw new Error(`schema.ts defines no string key attribute ${name}`);
  return { name: definition.AttributeName as string, type: AttributeType.STRING };
}

function keyOf(keys: { AttributeName?: string; KeyType?: string }[] | undefined, type: 'HASH' | 'RANGE'): string | undefined {
  return keys?.find((key) => key.KeyType === type)?.AttributeName;
}

function streamView(): StreamViewType {
  const view = schema.StreamSpecification?.StreamViewType;
  if (schema.StreamSpecification?.StreamEnabled !== true || view === undefined)
    throw new Error('schema.ts must enable the stream: the stream function depends on it');
  return view as StreamViewType;
}

/** How far back a point-in-time restore reaches (DynamoDB's maximum, and its default). */
export const PITR_RECOVERY_DAYS = 35;

export function createLorebookTable(scope: Construct, id: string): Table {
  if (schema.BillingMode !== 'PAY_PER_REQUEST') throw new Error('schema.ts is on-demand; this stack only knows on-demand');
  const sort = keyOf(schema.KeySchema, 'RANGE');
  const table = new Table(scope, id, {
    partitionKey: keyAttribute(keyOf(schema.KeySchema, 'HASH')),
    ...(sort === undefined ? {} : { sortKey: keyAttribute(sort) }),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    stream: streamView(),
    // Stated in docs/privacy.md: a deleted account or a redacted text stays in these backups this long.
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: PITR_RECOVERY_DAYS },
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of schema.GlobalSecondaryIndexes ?? []) {
    const indexSort = keyOf(index.KeySchema, 'RANGE');
    table.addGlobalSecondaryIndex({
      indexName: index.IndexName as string,
      partitionKey: keyAttribute(keyOf(index.KeySchema, 'HASH')),
      ...(indexSort === undefined ? {} : { sortKey: keyAttribute(indexSort) }),
      projectionType: index.Projection?.ProjectionType as ProjectionType,
    });
  }
  return table;
}

/** A table the stack did not create: a point-in-time restore put in service (docs/backup.md). */
export interface ExistingTable {
  tableName: string;
  /** Its stream (NEW_AND_OLD_IMAGES), which a restore does not carry over: enabled by hand first. */
  tableStreamArn: string;
}

/** The stack's own table, or the existing one named by `-c tableName=… -c tableStreamArn=…`. */
export function lorebookTable(scope: Construct, id: string, existing: ExistingTable | undefined): ITable {
  if (existing === undefined) return createLorebookTable(scope, id);
  if (!/^arn:aws[\w-]*:dynamodb:[^:]*:[^:]*:table\/[^/]+\/stream\/.+$/.test(existing.tableStreamArn))
    throw new Error(`tableStreamArn must be the table's stream ARN (…:table/<name>/stream/<label>), got "${existing.tableStreamArn}"`);
  if (!existing.tableStreamArn.includes(`:table/${existing.tableName}/stream/`))
    throw new Error(`tableStreamArn names another table than "${existing.tableName}"`);
  return Table.fromTableAttributes(scope, id, { tableName: existing.tableName, tableStreamArn: existing.tableStreamArn });
}
