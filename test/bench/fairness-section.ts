// The fairness section's runs: every attack against the default pool (one worker per core), then
// the heavy scans against one worker, to measure what the second worker buys on this machine.
import { availableParallelism } from 'node:os';
import { ATTACKS, type FairnessRun, runFairnessBench } from './fairness.ts';

export interface FairnessRuns {
  pool: FairnessRun;
  /** The same victim beside the heavy scans with one worker; absent on a one-core machine. */
  oneWorker: FairnessRun | undefined;
}

export async function runFairnessSection(endpoint: string, rounds: number, log: (line: string) => void): Promise<FairnessRuns> {
  log(`  ${availableParallelism()} workers (one per core): every attack, then all at once`);
  const pool = await runFairnessBench({ endpoint, rounds, phases: [...ATTACKS, 'all'], log });
  if (availableParallelism() < 2) return { pool, oneWorker: undefined };
  log('  one worker: the heavy scans');
  const oneWorker = await runFairnessBench({ endpoint, rounds, workers: 1, phases: ['scans'], log });
  return { pool, oneWorker };
}
