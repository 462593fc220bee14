// `npm run bench:surface`: section (b) of the benchmark on its own, the server before and after
// (surface-before-after.ts), on an embedded DynamoDB Local of its own. LOREBOOK_BENCH_SURFACE_RUNS
// (default 3) sets the runs. Prints the markdown table for BENCHMARKS.md §2.

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { createAgentAccounts } from './agents.ts';
import { describeMachine } from './machine.ts';
import { beforeAfterTable, runBeforeAfter } from './surface-before-after.ts';

const CALLS = { 1: 64, 16: 256, 64: 512 };
const runs = Number(process.env.LOREBOOK_BENCH_SURFACE_RUNS ?? 3);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const machine = await describeMachine();
log(`bench:surface on ${machine.cores} cores, node ${machine.node}; load ${machine.loadAtStart}; ${runs} runs`);
const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
const ctx: AppContext = {
  store: { client, tableName: 'bench-surface', now: Date.now },
  config: DEFAULT_APP_CONFIG,
  sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
  random: Math.random,
};
try {
  await ensureTable(client, ctx.store.tableName);
  const accounts = await createAgentAccounts(ctx, 'bench-agent', 64);
  const results = await runBeforeAfter(ctx, ddb.endpoint, accounts, { runs, calls: CALLS, log });
  log('');
  for (const line of beforeAfterTable(results, Object.keys(CALLS).map(Number))) log(line);
} finally {
  client.destroy();
  await ddb.stop();
}
