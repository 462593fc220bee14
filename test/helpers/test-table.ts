// A fresh, uniquely named table per suite on the run's DynamoDB Local, so suites can run in
// parallel without seeing each other's items.
//
// The table has the production schema, but its stream is on only where a suite asks for it (or
// runs npm start, whose poller reads it: npm-start.ts turns it on): DynamoDB Local keeps every
// stream record for 24 hours, dropped tables' included, and each write to a table with a stream
// pays for all of them. 20,000 records written earlier in a run made the same test file cost a
// JVM 26-30 CPU seconds instead of 5; a table without a stream does not pay.
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { createTableInput } from '../../src/store/schema.ts';

export interface TestTableOptions {
  /** The table's stream on (NEW_AND_OLD_IMAGES, as deployed): for suites that read it. */
  stream?: boolean;
}

export interface TestTable {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Drops the table and releases the client's sockets. */
  drop(): Promise<void>;
}

/** This file's DynamoDB Local: the one of its vitest worker (VITEST_POOL_ID counts from 1). */
export function testEndpoint(): string {
  const endpoints = inject('ddbEndpoints') ?? process.env.LOREBOOK_TEST_DDB_ENDPOINT?.split(',') ?? [];
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const endpoint = endpoints[(Math.max(1, worker) - 1) % Math.max(1, endpoints.length)];
  if (!endpoint) {
    throw new Error('No DynamoDB Local endpoint: run integration tests with `vitest --project integration`.');
  }
  return endpoint;
}

/** Table names allow [a-zA-Z0-9_.-], 3 to 255 characters. */
export function testTableName(suiteName: string): string {
  const slug = suiteName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `test-${slug || 'suite'}-${randomBytes(4).toString('hex')}`;
}

export async function createTestTable(suiteName: string, options: TestTableOptions = {}): Promise<TestTable> {
  const client = createStoreClient({ endpoint: testEndpoint() });
  const tableName = testTableName(suiteName);
  if (options.stream !== true) await createWithoutStream(client, tableName);
  await ensureTable(client, tableName);
  return {
    client,
    tableName,
    async drop() {
      try {
        await dropTable(client, tableName);
      } finally {
        client.destroy();
      }
    },
  };
}

/**
 * Registers beforeAll/afterAll hooks for the current suite and returns the table; its fields are
 * readable inside tests and hooks (after beforeAll ran).
 */
export function useTestTable(suiteName: string, options: TestTableOptions = {}): TestTable {
  let table: TestTable | undefined;
  beforeAll(async () => {
    table = await createTestTable(suiteName, options);
  });
  afterAll(async () => {
    await table?.drop();
  });
  const current = (): TestTable => {
    if (table === undefined) throw new Error('useTestTable: the table exists only inside tests and hooks.');
    return table;
  };
  return {
    get client() {
      return current().client;
    },
    get tableName() {
      return current().tableName;
    },
    drop: () => current().drop(),
  };
}

async function createWithoutStream(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const { StreamSpecification: _stream, ...input } = createTableInput(tableName);
  await client.send(new CreateTableCommand(input));
}

/** Turns the table's stream on (NEW_AND_OLD_IMAGES, as deployed) if it is off; ensureTable then waits for ACTIVE. */
export async function turnStreamOn(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  if (await streamIsOn(client, tableName)) return;
  const { StreamSpecification } = createTableInput(tableName);
  try {
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification }));
  } catch (error) {
    // Two servers started on one table at once: the other turned it on first.
    if (!(await streamIsOn(client, tableName))) throw error;
  }
  await ensureTable(client, tableName);
}

async function streamIsOn(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return Table?.StreamSpecification?.StreamEnabled === true;
}
