// `npm run bench:markdown`: only the markdown-cost section of `npm run bench`, on its own DynamoDB
// Local; prints the section (BENCHMARKS.md is written by the full bench).

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { runMarkdownCostOnce } from './markdown-cost.ts';
import { markdownCostSection } from './markdown-cost-report.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
try {
  const ctx: AppContext = {
    store: { client, tableName: 'bench-markdown', now: Date.now },
    config: DEFAULT_APP_CONFIG,
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  await ensureTable(client, ctx.store.tableName);
  const run = await runMarkdownCostOnce(ctx, ddb.endpoint, log);
  log(`\n${markdownCostSection(run).join('\n')}`);
} finally {
  client.destroy();
  await ddb.stop();
}
