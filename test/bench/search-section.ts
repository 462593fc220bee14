// Section 8 of `npm run bench`: search at 10k and 100k stories, MiniSearch only, p50/p99 against
// today's rebuild at 5k in the same run: what `npm run bench:search` (search-engines.ts) measures
// and prints, run in a child process with its engines narrowed to MiniSearch and its own budgets.
import { runBenchScript } from './child-script.ts';

export type SearchRun = { ok: true; markdown: string } | { ok: false; failure: string };

/** search-engines.ts prints one `## ` heading; the section gets its own number and name here. */
const PRINTED_HEADING = /^## .*\n/;

export async function runSearchBench(options: { timeoutMs: number; buildBudgetS: number; log(line: string): void }): Promise<SearchRun> {
  const outcome = await runBenchScript('search-engines.ts', [], {
    timeoutMs: options.timeoutMs,
    env: { LOREBOOK_BENCH_SEARCH_ENGINES: 'minisearch', LOREBOOK_BENCH_SEARCH_BUDGET_S: String(options.buildBudgetS) },
    log: options.log,
  });
  if (!outcome.ok) return { ok: false, failure: outcome.failure ?? 'failed' };
  return { ok: true, markdown: outcome.stdout.trim().replace(PRINTED_HEADING, '') };
}

export function searchSection(run: SearchRun | undefined): string[] {
  if (run === undefined) return [];
  const heading = '## 8. Search at 10k and 100k stories (MiniSearch)';
  if (!run.ok) return [heading, '', `Not measured in this run: \`bench:search\` ${run.failure}.`, ''];
  return [
    heading,
    '',
    'Command: `LOREBOOK_BENCH_SEARCH_ENGINES=minisearch npm run bench:search` (`test/bench/search-engines.ts`), run by `npm run bench` in a child',
    'process after the sections above; §7 has both engines side by side and how the corpus and queries are made.',
    '',
    run.markdown.trim(),
    '',
  ];
}
