// `npm run bench`: lorebook measured side by side with the references a user would pick instead,
// in one run on this machine, against one DynamoDB Local; writes BENCHMARKS.md.
// LOREBOOK_BENCH_QUICK=1 runs every section once with few calls (a smoke test, not a result).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { connectAgents, createAgentAccounts } from './agents.ts';
import { runBundlesBench } from './bundles-section.ts';
import { FAIRNESS_ROUNDS, runFairnessSection } from './fairness-section.ts';
import { type FanOutRun, runFanOutOnce } from './fan-out.ts';
import { createCounters, type IdempotencyRun, runIdempotencyOnce } from './idempotent-write.ts';
import { startLorebookProcess } from './lorebook-process.ts';
import { describeMachine } from './machine.ts';
import { type MarkdownCostRun, runMarkdownCostOnce } from './markdown-cost.ts';
import { type MemoryRun, runMemoryOnce } from './memory.ts';
import { createIdempotencyTable, powertoolsCreateAndCount, silenceLambdaContextWarning } from './powertools-write.ts';
import { DEATH_SCENARIOS, type DeathOutcome, runDeath } from './process-death.ts';
import { type BenchPlan, renderReport } from './report.ts';
import { runSearchBench } from './search-section.ts';
import { runSecretsBench } from './secrets.ts';
import { runSnapshotStallBench } from './snapshot-stall-section.ts';
import { ms, ratio } from './stats.ts';
import { runBeforeAfter } from './surface-before-after.ts';
import type { SurfaceRun } from './surface-overhead.ts';

const REPORT = new URL('../../BENCHMARKS.md', import.meta.url);
const BUDGET_MS = 30 * 60_000;
const QUICK = process.env.LOREBOOK_BENCH_QUICK === '1';

const plan: BenchPlan = QUICK
  ? {
      quick: true,
      idempotencyRuns: 1,
      idempotencyCalls: 30,
      duplicateTrials: 2,
      parallel: 16,
      deathRuns: 1,
      surfaceRuns: 1,
      surfaceCalls: { 1: 16, 16: 64, 64: 128 },
      fanOutRuns: 1,
      fanOutAgents: 64,
      memoryRuns: 1,
      memoryCalls: 1_000,
      memoryConcurrency: 16,
      coldStartRuns: 3,
    }
  : {
      quick: false,
      idempotencyRuns: 5,
      idempotencyCalls: 200,
      duplicateTrials: 10,
      parallel: 16,
      deathRuns: 2,
      surfaceRuns: 5,
      surfaceCalls: { 1: 64, 16: 256, 64: 512 },
      fanOutRuns: 5,
      fanOutAgents: 64,
      memoryRuns: 3,
      memoryCalls: 10_000,
      memoryConcurrency: 16,
      coldStartRuns: 9,
    };

const started = performance.now();
const clock = (): string => {
  const s = Math.floor((performance.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const log = (line: string): void => void process.stdout.write(`[${clock()}] ${line}\n`);
/**
 * Each section has a deadline (minutes from the start) that leaves room for the ones after it: its
 * first run always happens, a further run only if the last one would still fit. Skipped runs show
 * in the report as fewer runs.
 */
const DEADLINES_MIN = { idempotency: 3, death: 5, surface: 9, fanOut: 10, memory: 12 } as const;
/**
 * The sections that run once, each in a child process stopped at its bound: search (most of it
 * MiniSearch at 100k stories) until minute 26 at the latest and never less than its floor, then
 * the cold starts, whose bound is small and fixed, so the whole run stays within BUDGET_MS.
 */
const SEARCH_UNTIL_MIN = 26;
const SEARCH_FLOOR_MS = (QUICK ? 2 : 6) * 60_000;
const SEARCH_BUILD_BUDGET_S = QUICK ? 60 : 300;
/** The lag's part: seeding 5,000 stories through publishStory, then 10 publishes. */
const SEARCH_LAG_BOUND_MS = (QUICK ? 2 : 7) * 60_000;
/** The costliest queries: indexing 100,000 stories, then each query 3 times a side (before: seconds each). */
const SEARCH_HOSTILE_BOUND_MS = (QUICK ? 1 : 5) * 60_000;
const COLD_START_BOUND_MS = 3 * 60_000;
/** 10k and 100k stories, each indexed once and watched under npm start for two intervals, before and after. */
const SNAPSHOT_STALL_BOUND_MS = (QUICK ? 8 : 30) * 60_000;
function budgeted(section: keyof typeof DEADLINES_MIN): { more(run: number): boolean } {
  let last = 0;
  let lastStart = performance.now();
  return {
    more(run) {
      const now = performance.now();
      if (run > 1) last = now - lastStart;
      lastStart = now;
      if (run === 1) return true;
      const fits = now - started + last < DEADLINES_MIN[section] * 60_000;
      if (!fits) log(`  (skipping the remaining runs of this section to stay within the ${BUDGET_MS / 60_000}-minute budget)`);
      return fits;
    },
  };
}

silenceLambdaContextWarning();
const machine = await describeMachine();
log(
  `lorebook bench${QUICK ? ' (QUICK: a smoke test, not a result)' : ''} on ${machine.cores} cores, ${machine.memory}, node ${machine.node}, ${machine.java}; load ${machine.loadAtStart}`,
);
log(
  `budget: at most ${BUDGET_MS / 60_000} min; each section has a deadline (${Object.entries(DEADLINES_MIN)
    .map(([k, v]) => `${k} ${v} min`)
    .join(', ')}) past which its further runs are skipped. Planned:`,
);
log(
  `  (a) ${plan.idempotencyRuns} runs x ${plan.idempotencyCalls} first calls + replays per side, ${plan.duplicateTrials} trials of ${plan.parallel} parallel duplicates; process death: ${DEATH_SCENARIOS.length} scenarios x ${plan.deathRuns}`,
);
log(
  `  (b) ${plan.surfaceRuns} runs at concurrency 1/16/64 (${Object.values(plan.surfaceCalls).join('/')} calls)  (c) ${plan.fanOutRuns} runs of ${plan.fanOutAgents} agents  (d) ${plan.memoryRuns} runs x ${plan.memoryCalls} calls  (e) one markdown-cost run  (f) sitemaps: kept from npm run bench:sitemap  (g) search: the write-to-searchable lag, the costliest queries, one MiniSearch run (until minute ${SEARCH_UNTIL_MIN})  (h) cold starts, ${plan.coldStartRuns} processes per bundle`,
);

const ddb = await startDynamoDbLocal({ log: (line) => log(line) });
const client = createStoreClient({ endpoint: ddb.endpoint });
const ctx: AppContext = {
  store: { client, tableName: 'bench', now: Date.now },
  config: DEFAULT_APP_CONFIG,
  sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
  random: Math.random,
};

try {
  await ensureTable(client, ctx.store.tableName);

  // (a) idempotent write vs Powertools
  log('(a) idempotent write: lorebook apply-once vs Powertools makeIdempotent');
  const powertools = powertoolsCreateAndCount({
    endpoint: ddb.endpoint,
    itemsTable: ctx.store.tableName,
    idempotencyTable: 'bench-powertools-idempotency',
  });
  await createIdempotencyTable(powertools.client, 'bench-powertools-idempotency');
  await createCounters(ctx);
  const bench = { ctx, powertools };
  await runIdempotencyOnce(bench, { calls: 20, duplicateTrials: 0, parallel: plan.parallel }); // warm-up, not counted
  const idempotency: IdempotencyRun[] = [];
  const idempotencyBudget = budgeted('idempotency');
  for (let run = 1; run <= plan.idempotencyRuns && idempotencyBudget.more(run); run += 1) {
    const result = await runIdempotencyOnce(bench, {
      calls: plan.idempotencyCalls,
      duplicateTrials: plan.duplicateTrials,
      parallel: plan.parallel,
    });
    idempotency.push(result);
    log(
      `  run ${run}/${plan.idempotencyRuns}: first call p50 lorebook ${ms(result.lorebook.firstP50)} ms vs Powertools ${ms(result.powertools.firstP50)} ms (${ratio(result.lorebook.firstP50 / result.powertools.firstP50)}); replay p50 ${ms(result.lorebook.replayP50)} vs ${ms(result.powertools.replayP50)} ms (${ratio(result.lorebook.replayP50 / result.powertools.replayP50)})`,
    );
  }
  const deaths: DeathOutcome[][] = DEATH_SCENARIOS.map(() => []);
  const deathBudget = budgeted('death');
  for (let run = 1; run <= plan.deathRuns && deathBudget.more(run); run += 1) {
    for (const [index, scenario] of DEATH_SCENARIOS.entries()) {
      const outcome = await runDeath(bench, ddb.endpoint, scenario, `${run}-${index}`);
      deaths[index]?.push(outcome);
      log(
        `  process death ${run}/${plan.deathRuns}: ${scenario.label}: left ${outcome.left}; retry: ${outcome.retryAtOnce}${outcome.retryLater === undefined ? '' : `, later: ${outcome.retryLater}`}; applied ${outcome.applied}`,
      );
    }
  }
  powertools.destroy();

  // (b), (c), (d) over the real server process
  log('(b) surface overhead: MCP report_reproduction end to end vs a bare TransactWriteItems, the server before and after (issue 18)');
  const accounts = await createAgentAccounts(ctx, 'bench-agent', plan.fanOutAgents);
  const surfaceBudget = budgeted('surface');
  let surfaceRunsDone = 0;
  const surfaces = await runBeforeAfter(ctx, ddb.endpoint, accounts, {
    // Each run measures both servers; the deadline decides how many fit.
    runs: plan.surfaceRuns,
    more: (run) => {
      surfaceRunsDone = run;
      return surfaceBudget.more(run);
    },
    calls: plan.surfaceCalls,
    log,
  });
  log(`  ${surfaceRunsDone} surface runs`);
  const surface: SurfaceRun[][] = surfaces.after;
  const server = await startLorebookProcess(ddb.endpoint, ctx.store.tableName);
  const fanOut: FanOutRun[] = [];
  try {
    const agents = await connectAgents(server.baseUrl, accounts);
    log(`(c) fan-out: ${plan.fanOutAgents} agents report on one story at once, then all retry`);
    const fanOutBudget = budgeted('fanOut');
    for (let run = 1; run <= plan.fanOutRuns && fanOutBudget.more(run); run += 1) {
      const result = await runFanOutOnce(ctx, agents);
      fanOut.push(result);
      log(
        `  run ${run}/${plan.fanOutRuns}: counted ${result.countedAfterFirst} then ${result.countedAfterRetry} after the retries; ${ms(result.firstWaveMs)} + ${ms(result.retryWaveMs)} ms (bare ${ms(result.bareWaveMs)} ms)`,
      );
    }
    await Promise.all(agents.map((agent) => agent.close()));
  } finally {
    await server.stop();
  }

  log(`(d) memory: server RSS over ${plan.memoryCalls} tool calls, a fresh server process per run`);
  const memory: MemoryRun[] = [];
  const memoryBudget = budgeted('memory');
  for (let run = 1; run <= plan.memoryRuns && memoryBudget.more(run); run += 1) {
    log(`  run ${run}/${plan.memoryRuns}`);
    const result = await runMemoryOnce(
      ctx,
      ddb.endpoint,
      accounts.slice(0, plan.memoryConcurrency),
      plan.memoryCalls,
      plan.memoryConcurrency,
      log,
    );
    memory.push(result);
    log(`  run ${run}: ${result.perSecond.toFixed(0)} calls/s; heap after GC ${(result.heapAfterGc / 1024 / 1024).toFixed(1)} MiB`);
  }

  // (e) one run: ~2 min of publishes, views and the stopped unlimited renders.
  log('(e) markdown cost: hostile and worst-accepted stories vs a plain story of the same size');
  const markdownCost: MarkdownCostRun = await runMarkdownCostOnce(ctx, ddb.endpoint, log);

  // (e2) one run, ~1 min: the secret scan's false refusals over node_modules' docs, what it finds,
  // and its cost beside a publish.
  log('(e2) secrets at the door: false refusals of ordinary text, credentials found, the scan beside a publish');
  const secrets = await runSecretsBench(ctx, { rounds: QUICK ? 5 : 30, log });

  // (e3) a few minutes: a victim's calls beside heavy scans, oversized bodies and heavy images, against npm start.
  log('(e3) fairness under attack: a victim beside heavy scans, oversized bodies and heavy images (npm start)');
  const fairness = await runFairnessSection(ddb.endpoint, QUICK ? 3 : FAIRNESS_ROUNDS, log);

  // (f) sitemaps are measured by `npm run bench:sitemap` alone and kept as written: writing its
  // 55,000 stories into this DynamoDB Local after the sections above took 17 min for the first
  // 5,000 (requests past 5 s), more than the whole budget.

  // (g) one run in a child: MiniSearch at 10k and 100k stories against today's rebuild at 5k.
  log(
    "(g) search: the write-to-searchable lag, the costliest queries before and with the query plan, MiniSearch at 10k and 100k stories vs today's rebuild at 5k",
  );
  const search = await runSearchBench({
    lagTimeoutMs: SEARCH_LAG_BOUND_MS,
    hostileTimeoutMs: SEARCH_HOSTILE_BOUND_MS,
    // Taken when the lag has finished: the engines get what is left until the search deadline.
    get timeoutMs() {
      return Math.max(SEARCH_FLOOR_MS, SEARCH_UNTIL_MIN * 60_000 - (performance.now() - started));
    },
    buildBudgetS: SEARCH_BUILD_BUDGET_S,
    log,
  });
  if (!search.lag.ok) log(`  search lag: ${search.lag.failure}`);
  if (!search.hostile.ok) log(`  search, costliest queries: ${search.hostile.failure}`);
  if (!search.engines.ok) log(`  search: ${search.engines.failure}`);

  // (h) the Lambda bundles and their cold starts against the sweeper's (bench:coldstart).
  log('(h) Lambda bundles: bytes loaded at start and fresh-process starts vs the sweeper (bench:coldstart)');
  const bundles = await runBundlesBench(plan.coldStartRuns, COLD_START_BOUND_MS, log);
  if (!bundles.ok) log(`  cold starts: ${bundles.failure}`);

  // (i) one run in a child: the event loop under npm start's snapshot job, before and after issue 26;
  // it rewrites section 12 in place, and the report below keeps it.
  log('(i) the event loop under the snapshot job at 10k and 100k stories, before and after (bench:snapshot-stall)');
  await runSnapshotStallBench(QUICK, SNAPSHOT_STALL_BOUND_MS, log);

  const wallMs = performance.now() - started;
  const existing = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : undefined;
  const markdown = renderReport({
    plan,
    machine,
    date: new Date(),
    wallMs,
    idempotency,
    deaths,
    surface,
    surfaceBefore: surfaces.before,
    fanOut,
    memory,
    markdownCost,
    secrets,
    fairness,
    search,
    bundles,
    existing,
  });
  writeFileSync(REPORT, markdown);
  process.stdout.write(`\n${markdown}\n`);
  log(`wrote BENCHMARKS.md in ${(wallMs / 60_000).toFixed(1)} min`);
} finally {
  client.destroy();
  await ddb.stop();
}
