// `npm run bench:fairness`: only the fairness section of `npm run bench` (BENCHMARKS.md §11), on
// its own DynamoDB Local; prints the section (BENCHMARKS.md is written by the full bench).
// LOREBOOK_BENCH_FAIRNESS_ROUNDS sets the victim's rounds per phase (FAIRNESS_ROUNDS, 300); LOREBOOK_BENCH_FAIRNESS_PHASES
// (e.g. `bodies,all`) runs only those attacks, without the one-core runs.
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import type { Phase } from './fairness.ts';
import { fairnessSection } from './fairness-report.ts';
import { FAIRNESS_ROUNDS, runFairnessSection } from './fairness-section.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const ddb = await startDynamoDbLocal({ log: () => {} });
try {
  const only = process.env.LOREBOOK_BENCH_FAIRNESS_PHASES?.split(',') as Phase[] | undefined;
  const runs = await runFairnessSection(ddb.endpoint, Number(process.env.LOREBOOK_BENCH_FAIRNESS_ROUNDS ?? FAIRNESS_ROUNDS), log, only);
  log(`\n${fairnessSection(runs).join('\n')}`);
} finally {
  await ddb.stop();
}
