// `npm run bench:search-hostile [-- <stories>]`: what the costliest queries a stranger can send
// cost search_stories, before its query plan (src/app/search/query-plan.ts) and with it, on the
// production index over the bench corpus (search-corpus.ts; default 100,000 stories, 2,000 with
// LOREBOOK_BENCH_QUICK=1). Each query runs 3 times per side, interleaved; the ratios are against
// a typical two-word query through the plan in the same run. Before: search_stories' options as
// they were (the last word a prefix from 2 characters, typos on every word of 5 or more, up to
// MiniSearch's 6 edits). The OR queries of suggest_for_project and a publish's `similar` (up to 64
// words of a story's title, tags, stack and summary) are measured the same way: before, every word
// ORed with its typos; with their plan, query-plan.ts's planTopicQuery. Prints markdown; `npm run
// bench` puts it in BENCHMARKS.md §8.
import { fileURLToPath } from 'node:url';
import type { SearchOptions } from 'minisearch';
import { rankForQuery, rankForTopics, SEARCH_OPTIONS } from '../../src/app/search/search-ranking.ts';
import { createStoryIndex, type StoryIndex } from '../../src/app/search/story-index.ts';
import { contextTerms } from '../../src/app/search/suggestion-why.ts';
import { TOPIC_FIELDS_ONLY } from '../../src/app/search/topic-fields.ts';
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

/** suggest_for_project's and `similar`'s options before their plan: every word ORed, with its typos. */
const BEFORE_TOPIC_PLAN: SearchOptions = {
  ...TOPIC_FIELDS_ONLY,
  combineWith: 'OR',
  prefix: false,
  fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
  maxFuzzy: 2,
  boost: { stack: 3, tags: 3, title: 2, summary: 1 },
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

const typicalTopics = (story: ReturnType<typeof storyAt>): string => [story.title, story.tags, story.stack, story.summary].join(' ');

/** A search_stories query, or (`topics`) the text whose words suggest_for_project or `similar` OR. */
export const HOSTILE_QUERIES: ReadonlyArray<{ name: string; text: string; topics?: true }> = [
  { name: 'typical: two words (the reference)', text: `${wordOfRank(10)} ${wordOfRank(200)}` },
  { name: '16 of the commonest words', text: words(16, (i) => wordOfRank(i)) },
  { name: '16 near-misses of common words (6-letter prefixes, no such word)', text: words(16, (i) => wordOfRank(i).slice(0, 6)) },
  { name: 'a 2-letter prefix', text: 'ka' },
  { name: '16 random 30-letter words', text: words(16, (i) => letters(i + 1, 30)) },
  { name: 'one 500-letter word', text: letters(99, 500) },
  {
    name: '`similar` of a typical story (its title, tags, stack and summary, ORed)',
    text: typicalTopics(storyAt(10_000_007)),
    topics: true,
  },
  { name: '`similar` of another typical story', text: typicalTopics(storyAt(10_000_008)), topics: true },
  { name: '`similar` or a suggestion: 64 of the commonest words', text: words(64, (i) => wordOfRank(i)), topics: true },
  { name: '`similar` or a suggestion: 64 near-misses of common words', text: words(64, (i) => `${wordOfRank(i)}x`), topics: true },
];

function searched(index: StoryIndex, query: (typeof HOSTILE_QUERIES)[number], side: 'plan' | 'before'): number {
  if (query.topics === true) {
    const terms = contextTerms(query.text);
    return side === 'plan' ? rankForTopics(index, terms).length : index.search(terms.join(' '), BEFORE_TOPIC_PLAN).length;
  }
  return side === 'plan' ? rankForQuery(index, query.text).length : index.search(query.text, BEFORE_PLAN).length;
}

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
        const found = searched(index, query, side);
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
    `The costliest queries, before search_stories' query plan (and suggest_for_project's and \`similar\`'s) and with it (\`npm run bench:search-hostile -- ${stories}\`, \`test/bench/search-hostile.ts\`): ` +
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
