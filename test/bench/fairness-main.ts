// `npm run bench:fairness`: only the fairness section of `npm run bench` (BENCHMARKS.md §11), on
// its own DynamoDB Local; prints the section (BENCHMARKS.md is written by the full bench).
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { fairnessSection } from './fairness-report.ts';
import { runFairnessSection } from './fairness-section.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const ddb = await startDynamoDbLocal({ log: () => {} });
try {
  const runs = await runFairnessSection(ddb.endpoint, Number(process.env.LOREBOOK_BENCH_FAIRNESS_ROUNDS ?? 12), log);
  log(`\n${fairnessSection(runs).join('\n')}`);
} finally {
  await ddb.stop();
}
