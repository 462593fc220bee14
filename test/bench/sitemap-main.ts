// `npm run bench:sitemap`: test/bench/sitemap.ts on its own, writing its section of BENCHMARKS.md
// in place (npm run bench runs the same measurement as its section 6). LOREBOOK_TEST_DDB_ENDPOINT
// reuses a running DynamoDB Local instead of starting one; LOREBOOK_BENCH_QUICK=1 is a smoke test.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { replaceSection } from './report-sections.ts';
import { runSitemapBench, SITEMAP_HEADING, SITEMAP_PLAN, SITEMAP_QUICK_PLAN, sitemapSection } from './sitemap.ts';

const REPORT = new URL('../../BENCHMARKS.md', import.meta.url);
const QUICK = process.env.LOREBOOK_BENCH_QUICK === '1';
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const shared = process.env.LOREBOOK_TEST_DDB_ENDPOINT;
const ddb = shared === undefined ? await startDynamoDbLocal({ log }) : undefined;
// A long request timeout: DynamoDB Local pages a 50,000-entry month far slower than DynamoDB does,
// and a timed-out read would end the run instead of measuring it.
const client = createStoreClient({ endpoint: shared ?? (ddb?.endpoint as string), requestTimeoutMs: 120_000 });
try {
  const ctx: AppContext = {
    store: { client, tableName: `bench-sitemap-${Date.now()}`, now: Date.now },
    config: { ...DEFAULT_APP_CONFIG, anonymousRateLimitPerMinute: 10_000_000 },
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  await ensureTable(client, ctx.store.tableName);
  log(`bench:sitemap${QUICK ? ' (QUICK: a smoke test, not a result)' : ''}`);
  const run = await runSitemapBench(ctx, QUICK ? SITEMAP_QUICK_PLAN : SITEMAP_PLAN, log);
  const section = sitemapSection(run, 'npm run bench:sitemap').join('\n');
  process.stdout.write(`\n${section}\n`);
  if (!QUICK) {
    const existing = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
    writeFileSync(REPORT, replaceSection(existing, SITEMAP_HEADING, section));
    log('wrote its section of BENCHMARKS.md');
  }
} finally {
  client.destroy();
  await ddb?.stop();
}
