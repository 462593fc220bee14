// `npm run bench:search-hostile [-- <stories>]`: what the costliest queries a stranger can send
// cost search_stories, before its query plan (src/app/search/query-plan.ts) and with it, on the
// production index over the bench corpus (search-corpus.ts; default 100,000 stories, 2,000 with
// LOREBOOK_BENCH_QUICK=1). Each query runs 3 times per side, interleaved; the ratios are against
// a typical two-word query through the plan in the same run. Before: search_stories' options as
// they were (the last word a prefix from 2 characters, typos on every word of 5 or more, up to
// MiniSearch's 6 edits). Prints markdown; `npm run bench` puts it in BENCHMARKS.md §8.
import { fileURLToPath } from 'node:url';
import type { SearchOptions } from 'minisearch';
import { rankForQuery, SEARCH_OPTIONS } from '../../src/app/search/search-ranking.ts';
import { createStoryIndex, type StoryIndex } from '../../src/app/search/story-index.ts';
import { storyAt, wordOfRank } from './search-corpus.ts';
import { asSearchable } from './search-engine-adapters.ts';
import { percentile } from './stats.ts';

const RUNS = 3;

const BEFORE_PLAN: SearchOptions = {
  ...SEARCH_OPTIONS,
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  maxFuzzy: 6,
};

/** Deterministic letters, so every run sends the same "random" words. */
function letters(seed: number, length: number): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (state % 26));
  }).join('');
}

const words = (count: number, make: (i: number) => string): string => Array.from({ length: count }, (_, i) => make(i)).join(' ');

export const HOSTILE_QUERIES: ReadonlyArray<{ name: string; text: string }> = [
  { name: 'typical: two words (the reference)', text: `${wordOfRank(10)} ${wordOfRank(200)}` },
  { name: '16 of the commonest words', text: words(16, (i) => wordOfRank(i)) },
  { name: '16 near-misses of common words (6-letter prefixes, no such word)', text: words(16, (i) => wordOfRank(i).slice(0, 6)) },
  { name: 'a 2-letter prefix', text: 'ka' },
  { name: '16 random 30-letter words', text: words(16, (i) => letters(i + 1, 30)) },
  { name: 'one 500-letter word', text: letters(99, 500) },
];

export interface HostileRow {
  name: string;
  beforeMs: number;
  planMs: number;
  beforeResults: number;
  planResults: number;
}

export function measureHostileQueries(index: StoryIndex): HostileRow[] {
  const times = HOSTILE_QUERIES.map(() => ({ before: [] as number[], plan: [] as number[], beforeResults: 0, planResults: 0 }));
  for (let run = 0; run < RUNS; run += 1) {
    HOSTILE_QUERIES.forEach((query, n) => {
      const slot = times[n] as (typeof times)[number];
      const sides = run % 2 === 0 ? (['plan', 'before'] as const) : (['before', 'plan'] as const);
      for (const side of sides) {
        const started = performance.now();
        const found = side === 'plan' ? rankForQuery(index, query.text).length : index.search(query.text, BEFORE_PLAN).length;
        slot[side].push(performance.now() - started);
        if (side === 'plan') slot.planResults = found;
        else slot.beforeResults = found;
      }
    });
  }
  return HOSTILE_QUERIES.map((query, n) => {
    const slot = times[n] as (typeof times)[number];
    return { name: query.name, beforeMs: percentile(slot.before, 50), planMs: percentile(slot.plan, 50), ...slot };
  });
}

export function hostileLines(rows: readonly HostileRow[], stories: number, buildMs: number): string[] {
  const reference = (rows[0] as HostileRow).planMs;
  const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
  return [
    `The costliest queries, before search_stories' query plan and with it (\`npm run bench:search-hostile -- ${stories}\`, \`test/bench/search-hostile.ts\`): ` +
      `the production index over ${stories} corpus stories (built in ${(buildMs / 1000).toFixed(0)} s), median of ${RUNS} runs a side, interleaved; ` +
      'ratios against the typical two-word query through the plan in the same run. One search blocks its process for all its other requests while it runs.',
    '',
    '| query | before: ms | before: results | with the plan: ms | with the plan: results | before / typical | with the plan / typical |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${ms(row.beforeMs)} | ${row.beforeResults} | ${ms(row.planMs)} | ${row.planResults} | ${(row.beforeMs / reference).toFixed(2)}× | ${(row.planMs / reference).toFixed(2)}× |`,
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stories = Number(process.argv[2] ?? (process.env.LOREBOOK_BENCH_QUICK === '1' ? 2000 : 100_000));
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  log(`hostile queries: indexing ${stories} stories`);
  const started = performance.now();
  const index = createStoryIndex();
  for (let i = 0; i < stories; i += 1) {
    index.put(asSearchable(storyAt(i)));
  }
  const buildMs = performance.now() - started;
  log('hostile queries: measuring');
  process.stdout.write(`${hostileLines(measureHostileQueries(index), stories, buildMs).join('\n')}\n`);
}
