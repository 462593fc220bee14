// `npm run bench:search`: MiniSearch and Orama side by side as "an index snapshot kept in S3 and
// loaded by ETag", at 10k and 100k synthetic stories with bodies, each engine × size in its own
// child process (heap figures do not mix), against the reference measured in the same run: the
// MiniSearch rebuild of 5k feed summaries search did before issue 18 (search-before.ts). The
// MiniSearch figures are the production index (src/app/search/story-index.ts). Then the
// write-to-searchable lag through DynamoDB Local's stream (search-lag.ts), unless
// LOREBOOK_BENCH_SEARCH_LAG=0 (`npm run bench` runs the lag in a child of its own,
// search-lag-main.ts); LOREBOOK_TEST_DDB_ENDPOINT reuses a running DynamoDB Local.
// LOREBOOK_BENCH_QUICK=1: small sizes, to see it work. LOREBOOK_BENCH_SEARCH_BUDGET_S: the longest
// one build may take before it is stopped and reported "over budget" (default 600).
// LOREBOOK_BENCH_SEARCH_ENGINES: the engines to measure, comma-separated (default all; `npm run
// bench` runs minisearch only).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeMachine } from './machine.ts';
import {
  type CostLine,
  lambdaMemoryMiB,
  lanceDbCost,
  openSearchServerlessCost,
  PRICE_ASSUMPTIONS,
  snapshotLambdaCost,
} from './search-cost.ts';
import type { EngineName } from './search-engine-adapters.ts';
import type { SearchChildResult } from './search-engine-child.ts';
import { measureSearchLag } from './search-lag.ts';
import { mib, ms, ratio } from './stats.ts';

const QUICK = process.env.LOREBOOK_BENCH_QUICK === '1';
const SIZES = QUICK ? [1000, 6000] : [10_000, 100_000];
const REFERENCE_SIZE = QUICK ? 500 : 5000;
const ROUNDS = QUICK ? 5 : 30;
const BUDGET_MS = Number(process.env.LOREBOOK_BENCH_SEARCH_BUDGET_S ?? 600) * 1000;
/** The rest of a child's work (serialise, gzip, load, queries) after its build: also bounded. */
const AFTER_BUILD_MS = 15 * 60 * 1000;
const HEAP_CAP_MIB = 8192;
const ENGINE_NAMES = (process.env.LOREBOOK_BENCH_SEARCH_ENGINES?.split(',') ?? ['minisearch', 'orama']) as EngineName[];
const CHILD = fileURLToPath(new URL('./search-engine-child.ts', import.meta.url));

function runChild(engine: EngineName | 'reference', size: number): Promise<SearchChildResult> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', `--max-old-space-size=${HEAP_CAP_MIB}`, CHILD, engine, String(size), String(ROUNDS), String(BUDGET_MS)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), BUDGET_MS + AFTER_BUILD_MS);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as SearchChildResult);
      } catch {
        const why = signal === 'SIGKILL' ? 'over budget (killed after the time bound)' : `exited ${code ?? signal}: ${lastLine(stderr)}`;
        resolve({ engine, size, status: 'failed', error: why, indexed: 0, buildMs: Number.NaN, storiesPerSecond: Number.NaN });
      }
    });
  });
}

const lastLine = (text: string): string =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-2)
    .join(' ')
    .slice(0, 300);

const bytes = (value: number | undefined): string => (value === undefined ? 'n/a' : mib(value));
const maybeMs = (value: number | undefined): string => (value === undefined ? 'n/a' : ms(value));
const over = (value: number | undefined, reference: number | undefined): string =>
  value === undefined || reference === undefined ? '' : ` (${ratio(value / reference)})`;

function figuresTable(reference: SearchChildResult, results: SearchChildResult[]): string[] {
  const refQuery = reference.queries?.p50;
  const refHeap = (reference.heapAfterLoad ?? 0) - (reference.heapBeforeLoad ?? 0);
  const lines = [
    '| engine | stories | status | index stories/s | query p50 ms | query p99 ms | snapshot raw / gzip | serialise ms | load ms (cold start) | heap of the loaded index | add one ms | remove one ms | re-serialise ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| reference: today's rebuild (no body) | ${reference.size} | ${reference.status} | ${reference.storiesPerSecond.toFixed(0)} | ${maybeMs(refQuery)} | ${maybeMs(reference.queries?.p99)} | ${bytes(reference.snapshotBytes)} / ${bytes(reference.gzipBytes)} | – | rebuild ${ms(reference.buildMs)} | ${mib(refHeap)} | rebuild ${ms(reference.buildMs)} | rebuild ${ms(reference.buildMs)} | – |`,
  ];
  for (const r of results) {
    const heap = r.heapAfterLoad !== undefined && r.heapBeforeLoad !== undefined ? r.heapAfterLoad - r.heapBeforeLoad : undefined;
    const status = r.status === 'ok' ? 'ok' : `${r.status}${r.error === undefined ? '' : `: ${r.error}`} (${r.indexed} indexed)`;
    lines.push(
      `| ${r.engine} | ${r.size} | ${status} | ${Number.isFinite(r.storiesPerSecond) ? r.storiesPerSecond.toFixed(0) : 'n/a'}${over(r.storiesPerSecond, reference.storiesPerSecond)} | ` +
        `${maybeMs(r.queries?.p50)}${over(r.queries?.p50, refQuery)} | ${maybeMs(r.queries?.p99)}${over(r.queries?.p99, reference.queries?.p99)} | ` +
        `${bytes(r.snapshotBytes)} / ${bytes(r.gzipBytes)}${over(r.gzipBytes, reference.gzipBytes)} | ${maybeMs(r.serialiseMs)} | ` +
        `${maybeMs(r.loadMs)}${over(r.loadMs, reference.buildMs)} | ${bytes(heap ?? r.heapAfterBuild)}${heap === undefined && r.heapAfterBuild !== undefined ? ' (whole heap after build)' : ''}${over(heap, refHeap)} | ` +
        `${maybeMs(r.addMs)}${over(r.addMs, reference.buildMs)} | ${maybeMs(r.removeMs)}${over(r.removeMs, reference.buildMs)} | ${maybeMs(r.reserialiseMs)}${over(r.reserialiseMs, reference.buildMs)} |`,
    );
  }
  return lines;
}

function kindsTable(reference: SearchChildResult, results: SearchChildResult[]): string[] {
  const kinds = Object.keys(reference.queries?.byKind ?? {});
  const withQueries = [reference, ...results].filter((r) => r.queries !== undefined);
  return [
    `| engine | stories | ${kinds.join(' | ')} |`,
    `|---|---|${kinds.map(() => '---').join('|')}|`,
    ...withQueries.map((r) => `| ${r.engine} | ${r.size} | ${kinds.map((kind) => maybeMs(r.queries?.byKind[kind])).join(' | ')} |`),
  ];
}

function agreement(results: SearchChildResult[]): string[] {
  const lines: string[] = [];
  for (const size of SIZES) {
    const [a, b] = ENGINE_NAMES.map((engine) => results.find((r) => r.engine === engine && r.size === size)?.queries);
    if (a === undefined || b === undefined) {
      lines.push(`- ${size}: not compared (an engine has no figures at this size).`);
      continue;
    }
    const differ = Object.keys(a.topHits).filter((query) => a.topHits[query] !== b.topHits[query]);
    lines.push(
      `- ${size}: the top hit agrees on ${Object.keys(a.topHits).length - differ.length} of ${Object.keys(a.topHits).length} queries` +
        (differ.length === 0
          ? '.'
          : `; differs on ${differ.map((q) => `"${q}" (minisearch ${a.topHits[q] ?? '–'} of ${a.hits[q]}, orama ${b.topHits[q] ?? '–'} of ${b.hits[q]})`).join('; ')}.`),
    );
  }
  for (const r of results) {
    if ((r.checkFailures ?? []).length > 0) lines.push(`- ${r.engine} at ${r.size} failed checks: ${(r.checkFailures ?? []).join('; ')}.`);
    else if (r.queries !== undefined)
      lines.push(
        `- ${r.engine} at ${r.size}: ${r.status === 'ok' ? 'AND, body-only word, fed add and remove all hold' : 'AND and the body-only word hold (the fed path did not run)'}.`,
      );
  }
  return lines;
}

function costTable(results: SearchChildResult[]): string[] {
  const largest = Math.max(...SIZES);
  const lines: CostLine[] = [];
  for (const r of results.filter((result) => result.size === largest)) {
    if (r.queries === undefined || r.heapAfterLoad === undefined || r.heapBeforeLoad === undefined || r.loadMs === undefined) {
      lines.push({
        design: `Snapshot in S3 (${r.engine})`,
        perMillion: undefined,
        how: `no loaded figures at ${largest}: ${r.error ?? r.status}`,
      });
      continue;
    }
    const line = snapshotLambdaCost({ queryP50Ms: r.queries.p50, heapAfterLoadBytes: r.heapAfterLoad, loadMs: r.loadMs });
    lines.push({ ...line, design: `${line.design} (${r.engine}, ${largest} stories, ${lambdaMemoryMiB(r.heapAfterLoad)} MiB)` });
  }
  lines.push(openSearchServerlessCost(1e6), openSearchServerlessCost(1e8), lanceDbCost());
  return [
    '| design | $ per million searches | how |',
    '|---|---|---|',
    ...lines.map(
      (line) => `| ${line.design} | ${line.perMillion === undefined ? 'not measured' : `$${line.perMillion.toFixed(2)}`} | ${line.how} |`,
    ),
    '',
    'Prices assumed, **unverified** (AWS pages are not reachable from here):',
    '',
    '| assumption | value |',
    '|---|---|',
    ...Object.entries(PRICE_ASSUMPTIONS).map(([name, value]) => `| ${name} | ${value} |`),
  ];
}

export interface SearchBenchOptions {
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /** A running DynamoDB Local for the lag measurement; default: one is started and stopped. */
  ddbEndpoint?: string;
  /** false: the engines only (`npm run bench` runs the lag in a child of its own, search-lag-main.ts). */
  lag?: boolean;
}

/**
 * The whole search bench: the engines side by side (each in its own child), then the
 * write-to-searchable lag through DynamoDB Local's stream (search-lag.ts). Answers the report's
 * lines (markdown). LOREBOOK_BENCH_QUICK=1 makes every part small.
 */
export async function runSearchBench(options: SearchBenchOptions = {}): Promise<string[]> {
  const machine = await describeMachine();
  const progress = options.log ?? ((line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`));
  progress(`reference: MiniSearch rebuild of ${REFERENCE_SIZE} summaries`);
  const reference = await runChild('reference', REFERENCE_SIZE);
  const results: SearchChildResult[] = [];
  for (const size of SIZES) {
    for (const engine of ENGINE_NAMES) {
      progress(`${engine} at ${size}`);
      const result = await runChild(engine, size);
      progress(`${engine} at ${size}: ${result.status}${result.error === undefined ? '' : ` (${result.error})`}`);
      results.push(result);
    }
  }

  const report = [
    `## Search engines side by side${QUICK ? ' (quick mode: small sizes)' : ''}`,
    '',
    `Machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memory}, ${machine.node}, load at start ${machine.loadAtStart}. ` +
      `${ROUNDS} rounds of the query set per engine × size; a build budget of ${BUDGET_MS / 1000} s; a child heap cap of ${HEAP_CAP_MIB} MiB.`,
    '',
    `Ratios in brackets are against today's reference in this run (MiniSearch rebuilt from ${REFERENCE_SIZE} summaries as before issue 18): ` +
      'throughput, query times, gzip bytes and heap against the same figure of the reference; load, add, remove and re-serialise against ' +
      "the reference's whole rebuild, which is what today's instance does instead of each of them.",
    '',
    ...figuresTable(reference, results),
    '',
    'Query p50 by kind (ms):',
    '',
    ...kindsTable(reference, results),
    '',
    'Correctness:',
    '',
    ...agreement(results),
    '',
    'Cost per million searches:',
    '',
    ...costTable(results),
  ];
  if (options.lag === false) return report;
  return [...report, '', ...(await measureSearchLag(options.ddbEndpoint, QUICK, progress))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = await runSearchBench({
    ddbEndpoint: process.env.LOREBOOK_TEST_DDB_ENDPOINT,
    lag: process.env.LOREBOOK_BENCH_SEARCH_LAG !== '0',
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}
