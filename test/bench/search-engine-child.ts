// One engine at one size, alone in its own process (run with --expose-gc) so heap figures do not
// mix: build from stories generated one at a time, serialise (the S3 PUT), drop everything, load
// the snapshot back from disk (the S3 GET of a cold instance), then query, check and feed it.
// Prints one JSON line: a SearchChildResult.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BEFORE_SEARCH_OPTIONS, rebuildBefore, type SummaryToIndex } from './search-before.ts';
import { storyAt } from './search-corpus.ts';
import { ENGINES, type EngineIndex, type EngineName } from './search-engine-adapters.ts';
import { type BenchQuery, QUERY_SET } from './search-queries.ts';
import { percentile } from './stats.ts';

export interface QueryFigures {
  p50: number;
  p99: number;
  /** Median per kind of query. */
  byKind: Record<string, number>;
  /** The top hit of each query (undefined: nothing found). */
  topHits: Record<string, string | undefined>;
  /** How many results (at most CHECK_LIMIT) each query found. */
  hits: Record<string, number>;
}

export interface SearchChildResult {
  engine: EngineName | 'reference';
  size: number;
  status: 'ok' | 'over budget' | 'failed';
  error?: string;
  indexed: number;
  buildMs: number;
  storiesPerSecond: number;
  /** Heap in use after a full GC with the built index held (the stream handler's process). */
  heapAfterBuild?: number;
  serialiseMs?: number;
  snapshotBytes?: number;
  gzipBytes?: number;
  loadMs?: number;
  heapBeforeLoad?: number;
  heapAfterLoad?: number;
  queries?: QueryFigures;
  addMs?: number;
  removeMs?: number;
  reserialiseMs?: number;
  /** Failed correctness checks, in words. */
  checkFailures?: string[];
}

const CHECK_LIMIT = 1000;
const FEED_SAMPLES = 11;

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  collect();
  collect();
};

function measureQueries(index: EngineIndex, queries: readonly BenchQuery[], rounds: number): QueryFigures {
  const all: number[] = [];
  const perKind = new Map<string, number[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (const query of queries) {
      const start = performance.now();
      index.search(query.text, 20);
      const elapsed = performance.now() - start;
      all.push(elapsed);
      perKind.set(query.kind, [...(perKind.get(query.kind) ?? []), elapsed]);
    }
  }
  const topHits: Record<string, string | undefined> = {};
  const hits: Record<string, number> = {};
  for (const query of queries) {
    const found = index.search(query.text, CHECK_LIMIT);
    topHits[query.text] = found[0];
    hits[query.text] = found.length;
  }
  return {
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    byKind: Object.fromEntries([...perKind].map(([kind, values]) => [kind, percentile(values, 50)])),
    topHits,
    hits,
  };
}

// AND: what "a b" finds is found by "a" and by "b" alone; a body-only word finds its story first.
function checkCorrectness(index: EngineIndex, queries: readonly BenchQuery[], size: number): string[] {
  // Orama allocates an array of the limit, so "all" is the corpus size, not a huge number.
  const everything = size + FEED_SAMPLES + 1;
  const failures: string[] = [];
  for (const query of queries) {
    if (query.kind === 'two words AND') {
      const both = index.search(query.text, CHECK_LIMIT);
      const [first, second] = query.text.split(' ') as [string, string];
      const firstAlone = new Set(index.search(first, everything));
      const secondAlone = new Set(index.search(second, everything));
      const stray = both.filter((id) => !firstAlone.has(id) || !secondAlone.has(id));
      if (stray.length > 0) failures.push(`"${query.text}": ${stray.length} results lack one of the words`);
    }
    if (query.kind === 'body-only word' && query.expect !== undefined) {
      const top = index.search(query.text, 1)[0];
      if (top !== query.expect) failures.push(`"${query.text}" (body only) found ${top ?? 'nothing'}, not ${query.expect}`);
    }
  }
  return failures;
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function runReference(size: number, rounds: number): SearchChildResult {
  // The path before issue 18: summaries (no body) from the feed, rebuilt whole (search-before.ts).
  const summaries: SummaryToIndex[] = Array.from({ length: size }, (_, i) => {
    const story = storyAt(i);
    return { slug: story.id, title: story.title, summary: story.summary, tags: story.tags.split(' '), stack: [story.stack] };
  });
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  const built = rebuildBefore(summaries);
  const buildMs = performance.now() - start;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const index: EngineIndex = {
    add: () => undefined,
    remove: () => undefined,
    search: (query, limit) =>
      built
        .search(query, BEFORE_SEARCH_OPTIONS)
        .slice(0, limit)
        .map((result) => String(result.id)),
    serialise: () => JSON.stringify(built),
  };
  const serialised = index.serialise();
  return {
    engine: 'reference',
    size,
    status: 'ok',
    indexed: size,
    buildMs,
    storiesPerSecond: size / (buildMs / 1000),
    snapshotBytes: Buffer.byteLength(serialised),
    gzipBytes: gzipSync(serialised).length,
    heapBeforeLoad: heapBefore,
    heapAfterLoad: heapAfter,
    queries: measureQueries(index, QUERY_SET(size), rounds),
  };
}

function runEngine(name: EngineName, size: number, rounds: number, budgetMs: number): SearchChildResult {
  const engine = ENGINES[name];
  let built: EngineIndex | undefined = engine.create();
  const start = performance.now();
  let indexed = 0;
  for (; indexed < size; indexed += 1) {
    if (indexed % 500 === 0 && performance.now() - start > budgetMs) break;
    built.add(storyAt(indexed));
  }
  const buildMs = performance.now() - start;
  const storiesPerSecond = indexed / (buildMs / 1000);
  if (indexed < size) return { engine: name, size, status: 'over budget', indexed, buildMs, storiesPerSecond };
  gc();
  const heapAfterBuild = process.memoryUsage().heapUsed;
  const partial = { engine: name, size, indexed, buildMs, storiesPerSecond, heapAfterBuild };

  const dir = mkdtempSync(join(tmpdir(), 'lorebook-search-bench-'));
  try {
    const file = join(dir, 'snapshot.json');
    const serialiseStart = performance.now();
    let snapshot: string | undefined;
    try {
      snapshot = built.serialise();
    } catch (error) {
      // A snapshot past V8's largest string cannot be one S3 object read into one string; the
      // queries are still measured on the index as built, for what the engine could do unsharded.
      return {
        ...partial,
        status: 'failed',
        error: `serialise: ${error instanceof Error ? error.message : String(error)}; queries measured on the built index`,
        queries: measureQueries(built, QUERY_SET(size), rounds),
        checkFailures: checkCorrectness(built, QUERY_SET(size), size),
      };
    }
    const serialiseMs = performance.now() - serialiseStart;
    const snapshotBytes = Buffer.byteLength(snapshot);
    const gzipBytes = gzipSync(snapshot).length;
    writeFileSync(file, snapshot);
    snapshot = undefined;
    built = undefined;
    gc();
    const heapBeforeLoad = process.memoryUsage().heapUsed;

    let body: string | undefined = readFileSync(file, 'utf8');
    const loadStart = performance.now();
    const loaded = engine.load(body);
    const loadMs = performance.now() - loadStart;
    body = undefined;
    gc();
    const heapAfterLoad = process.memoryUsage().heapUsed;

    const queries = measureQueries(loaded, QUERY_SET(size), rounds);
    const checkFailures = checkCorrectness(loaded, QUERY_SET(size), size);

    // The fed path: one story published, then hidden, on a loaded index; then the next PUT.
    const adds: number[] = [];
    const removes: number[] = [];
    for (let sample = 0; sample < FEED_SAMPLES; sample += 1) {
      const story = storyAt(size + sample);
      const addStart = performance.now();
      loaded.add(story);
      adds.push(performance.now() - addStart);
      if (loaded.search(story.title, 5).length === 0) checkFailures.push(`a fed story (${story.id}) is not found by its title`);
      const removeStart = performance.now();
      loaded.remove(story);
      removes.push(performance.now() - removeStart);
      if (loaded.search(story.title, CHECK_LIMIT).includes(story.id)) checkFailures.push(`a removed story (${story.id}) is still found`);
    }
    loaded.add(storyAt(size + FEED_SAMPLES));
    const reserialiseStart = performance.now();
    loaded.serialise();
    const reserialiseMs = performance.now() - reserialiseStart;

    return {
      ...partial,
      status: 'ok',
      serialiseMs,
      snapshotBytes,
      gzipBytes,
      loadMs,
      heapBeforeLoad,
      heapAfterLoad,
      queries,
      addMs: median(adds),
      removeMs: median(removes),
      reserialiseMs,
      checkFailures,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [name, sizeArg, roundsArg, budgetArg] = process.argv.slice(2);
const size = Number(sizeArg);
const rounds = Number(roundsArg);
const budgetMs = Number(budgetArg);
let result: SearchChildResult;
try {
  result = name === 'reference' ? runReference(size, rounds) : runEngine(name as EngineName, size, rounds, budgetMs);
} catch (error) {
  result = {
    engine: name as EngineName,
    size,
    status: 'failed',
    error: error instanceof Error ? error.message : String(error),
    indexed: 0,
    buildMs: Number.NaN,
    storiesPerSecond: Number.NaN,
  };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
