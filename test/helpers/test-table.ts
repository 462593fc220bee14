// A fresh, uniquely named table per suite on the run's DynamoDB Local, so suites can run in
// parallel without seeing each other's items.
import { randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';

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

export async function createTestTable(suiteName: string): Promise<TestTable> {
  const client = createStoreClient({ endpoint: testEndpoint() });
  const tableName = testTableName(suiteName);
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
export function useTestTable(suiteName: string): TestTable {
  let table: TestTable | undefined;
  beforeAll(async () => {
    table = await createTestTable(suiteName);
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
