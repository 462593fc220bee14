// The fairness section's runs: every attack against the default pool (one worker per core), then
// the costliest scans against one worker, to measure what the second worker buys on this machine.
import { availableParallelism } from 'node:os';
import { ATTACKS, type FairnessRun, type Phase, runFairnessBench } from './fairness.ts';

/**
 * The victim's rounds per phase: with 100 a p99 is the second-slowest call of the phase. With 200
 * (a steadier p99) each attack lasts twice as long, and the server's RSS kept climbing through
 * the run (BENCHMARKS.md §11): the rows would no longer compare with the earlier runs'.
 */
export const FAIRNESS_ROUNDS = 100;

export interface FairnessRuns {
  pool: FairnessRun;
  /** The same victim beside the costliest scans with one worker; absent on a one-core machine. */
  oneWorker: FairnessRun | undefined;
}

export async function runFairnessSection(
  endpoint: string,
  rounds: number,
  log: (line: string) => void,
  /** Only these phases, without the one-worker run (a quick look while developing); default: all of them. */
  only?: readonly Phase[],
): Promise<FairnessRuns> {
  log(`  ${availableParallelism()} workers (one per core): ${only === undefined ? 'every attack, then all at once' : only.join(', ')}`);
  const pool = await runFairnessBench({ endpoint, rounds, phases: only ?? [...ATTACKS, 'all'], log });
  if (availableParallelism() < 2 || only !== undefined) return { pool, oneWorker: undefined };
  log('  one worker: the costliest scans');
  const oneWorker = await runFairnessBench({ endpoint, rounds, workers: 1, phases: ['costly-scans'], log });
  return { pool, oneWorker };
}
