// `npm run bench:similar`: what `similar` adds to a publish. Over one DynamoDB Local with a feed of
// FEED stories, first publishes alternate between three kinds, so all see the same machine load:
//   plain    — publishStory without a story search (the reference: no `similar`);
//   warm     — with the search, its index already built (one in-memory search);
//   rebuilt  — with the search invalidated first, as every surface does after a write, so the
//              search rebuilds its index from the feed before ranking (the worst case: a publish
//              right after another write in the same process).
// Prints p50/p99 of each and its ratio to plain at p50. LOREBOOK_TEST_DDB_ENDPOINT reuses a
// running DynamoDB Local instead of starting one.

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { sharedOffload } from '../../src/offload/offload.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { topicStory } from '../helpers/topic-stories.ts';
import { ms, percentile, ratio } from './stats.ts';

const FEED = Number(process.env.LOREBOOK_BENCH_SIMILAR_FEED ?? 500);
const ROUNDS = Number(process.env.LOREBOOK_BENCH_SIMILAR_ROUNDS ?? 40);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const TOPICS = ['kafka', 'redis', 'postgres', 'gradle', 'terraform', 'chromium', 'dynamodb', 'lambda', 'docker', 'nginx'];
const story = (title: string, index: number): string => {
  const topic = TOPICS[index % TOPICS.length] as string;
  return topicStory({
    title,
    tags: [topic, 'ops'],
    stack: [topic, 'linux'],
    summary: `The ${topic} setup broke under load, case ${index}.`,
  });
};

const shared = process.env.LOREBOOK_TEST_DDB_ENDPOINT;
const ddb = shared === undefined ? await startDynamoDbLocal({ log }) : undefined;
const client = createStoreClient({ endpoint: shared ?? (ddb?.endpoint as string) });
try {
  const ctx: AppContext = {
    store: { client, tableName: `bench-similar-${Date.now()}`, now: Date.now },
    config: { ...DEFAULT_APP_CONFIG },
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  await ensureTable(client, ctx.store.tableName);
  const author = { account: 'acct-bench', handle: 'bench.test' };
  log(`bench:similar: publishing a feed of ${FEED} stories`);
  for (let index = 0; index < FEED; index += 1) await publishStory(ctx, author, { markdown: story(`Feed story number ${index}`, index) });

  const search = createStorySearch(ctx, { refreshMs: 3_600_000 });
  const times = { plain: [] as number[], warm: [] as number[], rebuilt: [] as number[] };
  const publish = async (kind: keyof typeof times, round: number): Promise<void> => {
    const markdown = story(`Bench ${kind} publish ${round}`, round);
    if (kind === 'rebuilt') search.invalidate();
    // Warm: the index is built outside the timing, as a search made since the last write left it.
    if (kind === 'warm') await search.search({});
    const start = performance.now();
    const answer = await publishStory(ctx, author, { markdown }, kind === 'plain' ? undefined : search);
    times[kind].push(performance.now() - start);
    if (kind !== 'plain' && answer.similar.length === 0) throw new Error(`${kind} publish ${round} found nothing similar`);
  };
  const kinds = ['plain', 'warm', 'rebuilt'] as const;
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotating which goes first, so none always follows the same one.
    for (let offset = 0; offset < kinds.length; offset += 1)
      await publish(kinds[(round + offset) % kinds.length] as keyof typeof times, round);
  }
  const plainP50 = percentile(times.plain, 50);
  for (const kind of kinds) {
    const p50 = percentile(times[kind], 50);
    log(
      `${kind}: p50 ${ms(p50)} ms p99 ${ms(percentile(times[kind], 99))} ms | /plain at p50 ${ratio(p50 / plainP50)} (${ROUNDS} publishes, feed of ${FEED}+)`,
    );
  }
} finally {
  client.destroy();
  // The parse worker would keep the process alive.
  await sharedOffload().close();
  await ddb?.stop();
}
