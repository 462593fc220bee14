// Section 8 of `npm run bench`: search at 10k and 100k stories, MiniSearch only, p50/p99 against
// today's rebuild at 5k in the same run: what `npm run bench:search` (search-engines.ts) measures
// and prints, run in a child process with its engines narrowed to MiniSearch and its own budgets.
// The write-to-searchable lag runs first, in a child of its own (search-lag-main.ts) with its own
// bound, so an overrun of either part costs only that part's figures.
import { runBenchScript } from './child-script.ts';

export type SearchRun = { ok: true; markdown: string } | { ok: false; failure: string };

export interface SearchRuns {
  lag: SearchRun;
  engines: SearchRun;
  hostile: SearchRun;
}

/** search-engines.ts prints one `## ` heading; the section gets its own number and name here. */
const PRINTED_HEADING = /^## .*\n/;

const asRun = (outcome: { ok: boolean; stdout: string; failure?: string }): SearchRun =>
  outcome.ok ? { ok: true, markdown: outcome.stdout.trim() } : { ok: false, failure: outcome.failure ?? 'failed' };

/** The lag in `lagTimeoutMs`, the costliest queries in `hostileTimeoutMs`, then the engines in `timeoutMs`. */
export async function runSearchBench(options: {
  lagTimeoutMs: number;
  hostileTimeoutMs: number;
  timeoutMs: number;
  buildBudgetS: number;
  log(line: string): void;
}): Promise<SearchRuns> {
  const lag = asRun(await runBenchScript('search-lag-main.ts', [], { timeoutMs: options.lagTimeoutMs, log: options.log }));
  // The index of 100,000 stories takes ~1 GiB of heap and ~2 min to build.
  const hostile = asRun(
    await runBenchScript('search-hostile.ts', [], {
      timeoutMs: options.hostileTimeoutMs,
      nodeOptions: ['--max-old-space-size=6144'],
      log: options.log,
    }),
  );
  const outcome = await runBenchScript('search-engines.ts', [], {
    timeoutMs: options.timeoutMs,
    env: {
      LOREBOOK_BENCH_SEARCH_ENGINES: 'minisearch',
      LOREBOOK_BENCH_SEARCH_BUDGET_S: String(options.buildBudgetS),
      LOREBOOK_BENCH_SEARCH_LAG: '0',
    },
    log: options.log,
  });
  const engines: SearchRun = outcome.ok
    ? { ok: true, markdown: outcome.stdout.trim().replace(PRINTED_HEADING, '').trim() }
    : { ok: false, failure: outcome.failure ?? 'failed' };
  return { lag, engines, hostile };
}

export function searchSection(runs: SearchRuns | undefined): string[] {
  if (runs === undefined) return [];
  const heading = '## 8. Search at 10k and 100k stories (MiniSearch)';
  const engines = runs.engines.ok
    ? [
        'Command: `LOREBOOK_BENCH_SEARCH_ENGINES=minisearch npm run bench:search` (`test/bench/search-engines.ts`), run by `npm run bench` in a child',
        'process after the sections above; §7 has both engines side by side and how the corpus and queries are made.',
        '',
        runs.engines.markdown,
      ]
    : [`Not measured in this run: \`bench:search\` ${runs.engines.failure}.`];
  const lag = runs.lag.ok
    ? [
        'The write-to-searchable lag: `node test/bench/search-lag-main.ts` (`test/bench/search-lag.ts`), run by `npm run bench` in a child process',
        'of its own before the engines, on a DynamoDB Local of its own.',
        '',
        runs.lag.markdown,
      ]
    : [`Write-to-searchable lag not measured in this run: \`search-lag-main.ts\` ${runs.lag.failure}.`];
  const hostile = runs.hostile.ok
    ? [runs.hostile.markdown]
    : [`The costliest queries not measured in this run: \`search-hostile.ts\` ${runs.hostile.failure}.`];
  return [heading, '', ...engines, '', ...lag, '', ...hostile, ''];
}
