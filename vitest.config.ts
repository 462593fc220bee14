import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The suites that talk to DynamoDB Local, a PDS or npm start share one JVM and two cores for the
// whole run: a test that takes seconds alone has taken eight times as long late in a CI run. The
// bounds are there to end a hung test, not to time a working one (benchmarks do that).
const STORE_TEST_TIMEOUT_MS = 60_000;
const STORE_HOOK_TIMEOUT_MS = 120_000;
// Unit tests touch no store, but the property tests parse and scan hundreds of generated stories:
// 1-2 s alone, past vitest's 5 s default when the other core is busy (seen: 6.9 s at load 10).
const UNIT_TEST_TIMEOUT_MS = 30_000;

// Test files run in parallel, across projects. A store test spends most of its time waiting on
// DynamoDB Local, a PDS or a child process, so one file at a time left a core idle; more files
// than cores plus one only queue for CPU and stretch every test. Each worker has its own DynamoDB
// Local (test/helpers/global-setup.ts) and each file its own table, ports and temp dirs.
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: UNIT_TEST_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
      {
        test: {
          // A fault at every awaited store step of every write use case, then a retry (test/crash).
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
    ],
  },
});
