// Creating and dropping the table (local runs and tests; the CDK stack owns it in AWS).
// ensureTable is safe to call any number of times and from parallel processes.
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableInput, TTL_ATTRIBUTE } from './schema.ts';

const ACTIVE_TIMEOUT_MS = 60_000;
const POLL_MS = 100;

/** Creates the table if missing, waits until it and its indexes are ACTIVE, enables TTL. */
export async function ensureTable(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  if ((await describeTable(client, tableName)) === undefined) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
    } catch (error) {
      // A parallel ensureTable created it first: same schema, nothing to do.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  await waitUntilActive(client, tableName);
  await enableTtl(client, tableName);
}

/** Deletes the table; a table that is already gone is fine. */
export async function dropTable(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}

async function describeTable(client: DynamoDBDocumentClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function waitUntilActive(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  for (;;) {
    const table = await describeTable(client, tableName);
    const indexesActive = (table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
    if (table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() >= deadline) {
      throw new Error(`Table ${tableName} is not ACTIVE after ${ACTIVE_TIMEOUT_MS} ms (status ${table?.TableStatus ?? 'missing'}).`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function enableTtl(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const current = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = current.TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    // Two ensureTable calls raced past the describe: the second update is refused as a duplicate.
    if (!(error instanceof Error && /already enabled/i.test(error.message))) throw error;
  }
}
