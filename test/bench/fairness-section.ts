// The fairness section's runs: all at once on a server fresh from its start, every attack, and all
// at once again on the server the run has grown, against the default pool (one worker per core), then
// the server held to one core (`taskset -c 0`, as on a 1-vCPU machine) beside the costliest scans,
// with one worker and with its default there (two), to measure what the second worker buys; each
// one-core run on a DynamoDB Local of its own.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { ATTACKS, type FairnessRun, type Phase, runFairnessBench, TASKSET } from './fairness.ts';

/**
 * The victim's rounds per phase: a p99 is the fourth-slowest call of 300. With 100 it was the
 * second-slowest, and two phases with no attacker, one after the other, differed by up to 1.8× at
 * p99 (BENCHMARKS.md §11): a single slow call decided a row.
 */
export const FAIRNESS_ROUNDS = 300;

export interface FairnessRuns {
  pool: FairnessRun;
  /** The server on one core beside the costliest scans: one worker, then the default; absent without taskset or a second core. */
  oneCore: { oneWorker: FairnessRun; byDefault: FairnessRun } | undefined;
}

export async function runFairnessSection(
  endpoint: string,
  rounds: number,
  log: (line: string) => void,
  /** Only these phases, without the one-core runs (a quick look while developing); default: all of them. */
  only?: readonly Phase[],
): Promise<FairnessRuns> {
  log(`  ${availableParallelism()} cores: ${only === undefined ? 'all at once, every attack, then all at once again' : only.join(', ')}`);
  // All at once first too: its peak RSS against the idle of a server just started, before the
  // run's thousands of stories and warmed heaps are in it.
  const pool = await runFairnessBench({ endpoint, rounds, phases: only ?? ['all', ...ATTACKS, 'all'], log });
  if (availableParallelism() < 2 || !existsSync(TASKSET) || only !== undefined) return { pool, oneCore: undefined };
  const oneCore = async (workers: number | undefined): Promise<FairnessRun> => {
    log(`  one core, ${workers ?? 'the default'} worker(s): the costliest scans`);
    // A DynamoDB Local of its own: after the pool's run the shared one answered the victim alone
    // ~15× slower (a publish's p50 925 ms, its table dropped) than a fresh one (50–61 ms).
    const own = await startDynamoDbLocal({ log: () => {} });
    try {
      return await runFairnessBench({ endpoint: own.endpoint, rounds, workers, cpus: '0', phases: ['costly-scans'], log });
    } finally {
      await own.stop();
    }
  };
  return { pool, oneCore: { oneWorker: await oneCore(1), byDefault: await oneCore(undefined) } };
}
