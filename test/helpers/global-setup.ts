// vitest globalSetup of the store projects: in-memory DynamoDB Locals shared by every test file of
// the run, one per vitest worker (test files run in parallel, vitest.config.ts), so a file's
// requests never queue behind another file's 64-way contention test in one JVM. Each suite makes
// its own table (test-table.ts). Set LOREBOOK_TEST_DDB_ENDPOINT to one endpoint, or several
// separated by commas, to reuse servers that are already running; then nothing is started.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';

export const ENDPOINT_ENV = 'LOREBOOK_TEST_DDB_ENDPOINT';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's DynamoDB Local endpoints, e.g. ['http://127.0.0.1:43121']; a file uses one (test-table.ts). */
    ddbEndpoints: string[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = process.env[ENDPOINT_ENV];
  if (existing !== undefined && existing !== '') {
    project.provide('ddbEndpoints', existing.split(','));
    return async () => {};
  }
  const count = Math.max(1, project.globalConfig.maxWorkers);
  // JVMs starting side by side share the cores: give them longer than one alone needs (~3 s).
  const start = () => startDynamoDbLocal({ readyTimeoutMs: 120_000, log: (line) => process.stderr.write(`${line}\n`) });
  const servers = await Promise.all(Array.from({ length: count }, start));
  const endpoints = servers.map((server) => server.endpoint);
  // The other store projects' setups see this and share the same servers.
  process.env[ENDPOINT_ENV] = endpoints.join(',');
  project.provide('ddbEndpoints', endpoints);
  return async () => {
    delete process.env[ENDPOINT_ENV];
    await Promise.all(servers.map((server) => server.stop()));
  };
}
