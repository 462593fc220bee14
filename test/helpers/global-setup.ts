// vitest globalSetup of the integration project: one in-memory DynamoDB Local per run, shared by
// every test file (each suite makes its own table, see test-table.ts). Set
// LOREBOOK_TEST_DDB_ENDPOINT to reuse a server that is already running; then nothing is started.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';

export const ENDPOINT_ENV = 'LOREBOOK_TEST_DDB_ENDPOINT';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local endpoint of this test run, e.g. http://127.0.0.1:43121. */
    ddbEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = process.env[ENDPOINT_ENV];
  if (existing !== undefined && existing !== '') {
    project.provide('ddbEndpoint', existing);
    return async () => {};
  }
  const ddb = await startDynamoDbLocal({ log: (line) => process.stderr.write(`${line}\n`) });
  process.env[ENDPOINT_ENV] = ddb.endpoint;
  project.provide('ddbEndpoint', ddb.endpoint);
  return async () => {
    delete process.env[ENDPOINT_ENV];
    await ddb.stop();
  };
}
