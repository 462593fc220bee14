// `npm run bench:secrets`: only the secret-scan section of `npm run bench`, on its own DynamoDB
// Local; prints the section (BENCHMARKS.md is written by the full bench).

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { sharedOffload } from '../../src/offload/offload.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { runSecretsBench } from './secrets.ts';
import { secretsSection } from './secrets-report.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
try {
  const ctx: AppContext = {
    store: { client, tableName: 'bench-secrets', now: Date.now },
    config: DEFAULT_APP_CONFIG,
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  await ensureTable(client, ctx.store.tableName);
  const run = await runSecretsBench(ctx, { rounds: Number(process.env.LOREBOOK_BENCH_SECRETS_ROUNDS ?? 30), log });
  log(`\n${secretsSection(run).join('\n')}`);
} finally {
  await sharedOffload().close();
  client.destroy();
  await ddb.stop();
}
