// The write-to-searchable lag: a story published on one app context (one instance) until a search
// on another finds it, through DynamoDB Local's table stream, the stream function's change-log
// writer and the other instance's once-a-second log read. Against the path before issue 18, in
// the same run and on the same table: the other instance saw a write only at its next whole-feed
// rebuild (at most 5 s later), which took the feed walk plus the index build measured here.
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { AppContext, Caller } from '../../src/app/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { MAX_LIST_LIMIT } from '../../src/app/queries/list-stories.contract.ts';
import { listStories } from '../../src/app/queries/list-stories.ts';
import { recordSearchChanges } from '../../src/app/search/record-search-changes.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import type { StreamRecordShape } from '../../src/app/search/search-change-records.ts';
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
/** A round that has not found its story by then is reported as failed, not waited on forever. */
const ROUND_LIMIT_MS = 30_000;

/** Follows the table's stream from now on, as the stream function would, handing each batch to `onBatch`. */
async function tailStream(ctx: AppContext, endpoint: string, onBatch: (records: StreamRecordShape[]) => Promise<void>) {
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'lorebooklocal', secretAccessKey: 'lorebooklocal' },
  });
  const table = await ctx.store.client.send(new DescribeTableCommand({ TableName: ctx.store.tableName }));
  const streamArn = table.Table?.LatestStreamArn as string;
  const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
  const iterators = await Promise.all(
    shards.map(
      async (shard) =>
        (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'LATEST' })))
          .ShardIterator,
    ),
  );
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const [n, iterator] of iterators.entries()) {
        if (iterator === undefined) continue;
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        iterators[n] = page.NextShardIterator;
        const records = (page.Records ?? []) as (_Record & StreamRecordShape)[];
        if (records.length > 0) await onBatch(records);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
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

  // The stream function's part: each batch of stream records becomes change-log items.
  const tail = await tailStream(writer, endpoint, async (records) => void (await recordSearchChanges(writer, records)));
  const search = createStorySearch(reader);
  await search.search({ query: 'seeded' });
  const lags: number[] = [];
  try {
    for (let round = 0; round < plan.rounds; round += 1) {
      const word = `lagword${round}x${Date.now().toString(36)}`;
      const started = performance.now();
      await publishStory(writer, author, { markdown: storyTitled(`Lag round ${round}`, { extra: `Only here: ${word}.` }) });
      for (;;) {
        if ((await search.search({ query: word })).total === 1) break;
        if (performance.now() - started > ROUND_LIMIT_MS) throw new Error(`round ${round}: not found after ${ROUND_LIMIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      lags.push(performance.now() - started);
    }
  } finally {
    await tail.stop();
  }
  return { plan, lag: { p50: percentile(lags, 50), max: Math.max(...lags) }, rebuildMs };
}

export function searchLagLines(run: SearchLagRun): string[] {
  const before = 5000 + run.rebuildMs;
  return [
    `Write-to-searchable lag on another instance, ${run.plan.rounds} publishes over ${run.plan.stories} stories (DynamoDB Local's stream, the change log, a 1 s log read):`,
    '',
    '| path | lag p50 | lag max |',
    '|---|---|---|',
    `| change log (built) | ${run.lag.p50.toFixed(0)} ms | ${run.lag.max.toFixed(0)} ms |`,
    `| before: next 5 s rebuild of the whole feed (${run.plan.stories} stories, feed walk + index: ${run.rebuildMs.toFixed(0)} ms) | up to ${before.toFixed(0)} ms | ${before.toFixed(0)} ms |`,
    '',
    `Ratio, built max against the old worst case: ${(run.lag.max / before).toFixed(2)}×; every old refresh also re-read ${run.plan.stories} stories, the log read reads only what changed.`,
  ];
}
