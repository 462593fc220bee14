import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/sequencer/slowest-first.ts';

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

// A worker keeps the modules it imported from one test file to the next (isolate: false): a fresh
// module graph per file (the AWS SDK, the app, a test PDS's packages) was a quarter of the unit
// and crash projects' CPU time. Every file still makes its own table, ports, temp dirs and
// servers, and restores what it changes (environment variables, mocks).
const SHARE_MODULES = { isolate: false } as const;

/**
 * The files that measure their own process (its heap, RSS or event loop: test/unit/vitest-config
 * checks the list): other files' leftovers in a shared worker would be counted as theirs, so each
 * runs in a fresh one.
 */
export const MEASURE_THE_PROCESS = [
  'test/integration/pages/markdown-cost.test.ts',
  'test/integration/redaction/account-export.test.ts',
  'test/unit/offload/compact-heap.test.ts',
];
const measuredUnder = (dir: string): string[] => MEASURE_THE_PROCESS.filter((file) => file.startsWith(dir));

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: MEASURE_THE_PROCESS,
          ...SHARE_MODULES,
          testTimeout: UNIT_TEST_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'unit-measured',
          include: measuredUnder('test/unit/'),
          testTimeout: UNIT_TEST_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: MEASURE_THE_PROCESS,
          ...SHARE_MODULES,
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'integration-measured',
          include: measuredUnder('test/integration/'),
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
          ...SHARE_MODULES,
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...SHARE_MODULES,
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: STORE_TEST_TIMEOUT_MS,
          hookTimeout: STORE_HOOK_TIMEOUT_MS,
        },
      },
    ],
  },
});
