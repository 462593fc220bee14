// The write-to-searchable lag: a story published on one app context (one instance) until a search
// on another finds it, through DynamoDB Local's table stream, the stream function's change-log
// writer (fed by `npm start`'s stream poller) and the other instance's once-a-second log read. Against the path before issue 18, in
// the same run and on the same table: the other instance saw a write only at its next whole-feed
// rebuild (at most 5 s later), which took the feed walk plus the index build measured here.
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, type Caller, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { MAX_LIST_LIMIT } from '../../src/app/queries/list-stories.contract.ts';
import { listStories } from '../../src/app/queries/list-stories.ts';
import { recordSearchChanges } from '../../src/app/search/record-search-changes.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient, createStreamsClient } from '../../src/store/client.ts';
import { startTableStreamPoller } from '../../src/store/table-stream/table-stream.ts';
import { storyTitled } from '../helpers/stories.ts';
import { BEFORE_SEARCH_OPTIONS, rebuildBefore } from './search-before.ts';
import { percentile } from './stats.ts';

export interface SearchLagPlan {
  /** Stories in the table before the lag is measured (the reference rebuilds all of them). */
  stories: number;
  rounds: number;
}

export const SEARCH_LAG_PLAN: SearchLagPlan = { stories: 5000, rounds: 10 };
export const SEARCH_LAG_QUICK_PLAN: SearchLagPlan = { stories: 200, rounds: 3 };

export interface SearchLagRun {
  plan: SearchLagPlan;
  /** Publish start to found on the other instance, ms. */
  lag: { p50: number; max: number };
  /** The old path's rebuild on the other instance: the feed walk and the index build, ms (median of 3). */
  rebuildMs: number;
}

const SEED_CONCURRENCY = 8;
const POLL_MS = 25;
/** `npm start`'s stream poll interval (LOREBOOK_STREAM_POLL_INTERVAL_MS's default). */
const STREAM_POLL_MS = 1000;
/** A round that has not found its story by then is reported as failed, not waited on forever. */
const ROUND_LIMIT_MS = 30_000;
/** The poller has every seeded story's records to work off first. */
const WARM_UP_LIMIT_MS = 10 * 60_000;

/** The stream poller `npm start` runs (src/store/table-stream/), handing each batch to the change log's writer. */
function followStream(ctx: AppContext, endpoint: string, log: (line: string) => void) {
  const streams = createStreamsClient({ endpoint });
  const poller = startTableStreamPoller({
    client: ctx.store.client,
    streams,
    tableName: ctx.store.tableName,
    checkpoint: { namespace: 'bench-search-lag' },
    intervalMs: STREAM_POLL_MS,
    log,
    onRecords: async (records) => void (await recordSearchChanges(ctx, records)),
  });
  return {
    async stop() {
      await poller.stop();
      streams.destroy();
    },
  };
}

async function rebuildFromFeed(ctx: AppContext): Promise<number> {
  const started = performance.now();
  const stories = [];
  let cursor: string | undefined;
  for (let page = 0; page < 400; page += 1) {
    const list = await listStories(ctx, undefined, cursor === undefined ? { limit: MAX_LIST_LIMIT } : { limit: MAX_LIST_LIMIT, cursor });
    stories.push(...list.stories);
    cursor = list.cursor;
    if (cursor === undefined) break;
  }
  rebuildBefore(stories).search('probe', BEFORE_SEARCH_OPTIONS);
  return performance.now() - started;
}

/** `writer` and `reader` are two contexts (own store clients) on one table; `endpoint` is DynamoDB Local's. */
export async function runSearchLagBench(
  writer: AppContext,
  reader: AppContext,
  endpoint: string,
  plan: SearchLagPlan,
  log: (line: string) => void,
): Promise<SearchLagRun> {
  const author: Caller = { account: 'acct-lag-bench', handle: 'lag-bench.test' };
  // The stream function's part, from the first write on: each batch becomes change-log items.
  const stream = followStream(writer, endpoint, log);
  const search = createStorySearch(reader);
  /**
   * Publishes a story with a word of its own; the ms until the reader's search finds it. The word
   * is random letters: search tolerates typos, so words told apart by a digit or two (a round
   * number, a timestamp) would find each other's stories as well.
   */
  const publishAndFind = async (name: string, limitMs: number): Promise<number> => {
    const word = `lagword${Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
    const started = performance.now();
    const { slug } = await publishStory(writer, author, { markdown: storyTitled(`Lag ${name}`, { extra: `Only here: ${word}.` }) });
    for (;;) {
      const found = await search.search({ query: word, limit: 50 });
      if (found.stories.some((story) => story.slug === slug)) return performance.now() - started;
      if (performance.now() - started > limitMs) throw new Error(`${name}: not found after ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  try {
    log(`search lag: seeding ${plan.stories} stories`);
    for (let start = 0; start < plan.stories; start += SEED_CONCURRENCY) {
      await Promise.all(
        Array.from({ length: Math.min(SEED_CONCURRENCY, plan.stories - start) }, (_, n) =>
          publishStory(writer, author, { markdown: storyTitled(`Seeded story number ${start + n}`) }),
        ),
      );
    }
    const rebuilds = [await rebuildFromFeed(reader), await rebuildFromFeed(reader), await rebuildFromFeed(reader)];
    const rebuildMs = percentile(rebuilds, 50);
    log(`search lag: seeded; the whole-feed rebuild takes ${rebuildMs.toFixed(0)} ms`);
    // Not counted: the reader's cold start, and the poller working off the seeding's records.
    await search.search({ query: 'seeded' });
    log('search lag: the reader has its index; waiting for the poller to catch up');
    await publishAndFind('warm-up', WARM_UP_LIMIT_MS);
    log('search lag: caught up; measuring');
    const lags: number[] = [];
    for (let round = 0; round < plan.rounds; round += 1) lags.push(await publishAndFind(`round ${round}`, ROUND_LIMIT_MS));
    return { plan, lag: { p50: percentile(lags, 50), max: Math.max(...lags) }, rebuildMs };
  } finally {
    await stream.stop();
  }
}

export function searchLagLines(run: SearchLagRun): string[] {
  const before = 5000 + run.rebuildMs;
  return [
    `Write-to-searchable lag on another instance, ${run.plan.rounds} publishes over ${run.plan.stories} stories (DynamoDB Local's stream read every 1 s by npm start's poller, the change log, a 1 s log read):`,
    '',
    '| path | lag p50 | lag max |',
    '|---|---|---|',
    `| change log (built) | ${run.lag.p50.toFixed(0)} ms | ${run.lag.max.toFixed(0)} ms |`,
    `| before: next 5 s rebuild of the whole feed (${run.plan.stories} stories, feed walk + index: ${run.rebuildMs.toFixed(0)} ms) | up to ${before.toFixed(0)} ms | ${before.toFixed(0)} ms |`,
    '',
    `Ratio, built max against the old worst case: ${(run.lag.max / before).toFixed(2)}×; every old refresh also re-read ${run.plan.stories} stories, the log read reads only what changed.`,
  ];
}

/** Two contexts (two store clients, as two instances have) on a fresh table with its stream. */
async function withLagContexts<T>(
  shared: string | undefined,
  run: (writer: AppContext, reader: AppContext, endpoint: string) => Promise<T>,
): Promise<T> {
  const ddb = shared === undefined ? await startDynamoDbLocal({ log: () => {} }) : undefined;
  const endpoint = shared ?? (ddb?.endpoint as string);
  const tableName = `bench-search-lag-${Date.now()}`;
  const context = (): AppContext => ({
    store: { client: createStoreClient({ endpoint, requestTimeoutMs: 60_000 }), tableName, now: Date.now },
    config: { ...DEFAULT_APP_CONFIG, rateLimitPerMinute: 10_000_000 },
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  });
  const writer = context();
  const reader = context();
  try {
    await ensureTable(writer.store.client, tableName);
    return await run(writer, reader, endpoint);
  } finally {
    writer.store.client.destroy();
    reader.store.client.destroy();
    await ddb?.stop();
  }
}

/**
 * The lag's report lines, on `endpoint` (or a DynamoDB Local of its own). A run that fails says
 * so in its line instead of throwing: the figures measured beside it stand on their own.
 */
export async function measureSearchLag(endpoint: string | undefined, quick: boolean, log: (line: string) => void): Promise<string[]> {
  const plan = quick ? SEARCH_LAG_QUICK_PLAN : SEARCH_LAG_PLAN;
  log('write-to-searchable lag through the table stream');
  try {
    return searchLagLines(await withLagContexts(endpoint, (writer, reader, at) => runSearchLagBench(writer, reader, at, plan, log)));
  } catch (error) {
    log(`write-to-searchable lag failed: ${(error as Error).message}`);
    return [`Write-to-searchable lag over ${plan.stories} stories: **not measured** (${(error as Error).message}).`];
  }
}
