// `node test/bench/story-aggregates.ts`: what the reproduction aggregates cost get_story (and so
// a story page). Four stories on one table: 2 counted reproducers (no aggregates read: the
// reference), 3, 1,000, and 10,000 (the default reproducer cap), each report carrying agent, env,
// duration and tokens and a 200-character note. Reads alternate story by story, so every side
// sees the same machine load. Prints p50 per story, the ratio against the reference, and the
// Query pages each read took.
// Runs on a DynamoDB Local of its own (in memory), so its 10,000-report story loads no shared one.
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { getStory } from '../../src/app/queries/get-story.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { storyKey } from '../../src/store/keys.ts';
import { reproductionItem } from '../../src/store/story/reproduction-items.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';
import { storyTitled } from '../helpers/stories.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_AGGREGATES_ROUNDS ?? 5);
const FAMILIES = ['claude-code', 'codex', 'aider', 'cursor', 'gemini-cli'];
const SYSTEMS = ['linux', 'macos', 'windows'];
const started = performance.now();
const log = (line: string): void => void process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${line}\n`);

const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
const ctx: AppContext = {
  store: { client, tableName: 'bench-aggregates', now: Date.now },
  config: DEFAULT_APP_CONFIG,
  sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
  random: Math.random,
};
const author = { account: 'acct-bench-author', handle: 'bench' };

/** A story with `reporters` counted reports written straight to the table (the use case would take minutes at the cap). */
async function storyWithReports(title: string, reporters: number, noteChars: number): Promise<string> {
  const { slug } = await publishStory(ctx, author, { markdown: storyTitled(title) });
  const accounts = Array.from({ length: reporters }, (_, index) => `did:plc:bench${String(index).padStart(19, '0')}`);
  const at = new Date().toISOString();
  for (let start = 0; start < accounts.length; start += 25) {
    const items = accounts.slice(start, start + 25).map((account, offset) => {
      const index = start + offset;
      return reproductionItem({
        slug,
        account,
        result: 'worked',
        note: 'n'.repeat(noteChars),
        agent: `${FAMILIES[index % FAMILIES.length]} 1.0.0 (some-model)`,
        env: `node: 22; os: ${SYSTEMS[index % SYSTEMS.length]}`,
        agent_fields: { name: FAMILIES[index % FAMILIES.length] as string, version: '1.0.0', model: 'some-model' },
        env_fields: { node: '22', os: SYSTEMS[index % SYSTEMS.length] as string },
        duration_min: index % 90,
        tokens: 1_000 + index,
        counted: true,
        at,
      });
    });
    await client.send(new BatchWriteCommand({ RequestItems: { [ctx.store.tableName]: items.map((Item) => ({ PutRequest: { Item } })) } }));
  }
  for (let start = 0; start < accounts.length; start += 1_000) {
    await client.send(
      new UpdateCommand({
        TableName: ctx.store.tableName,
        Key: storyKey(slug),
        UpdateExpression: 'ADD reproducers :accounts, counts.worked :n',
        ExpressionAttributeValues: {
          ':accounts': new Set(accounts.slice(start, start + 1_000)),
          ':n': accounts.slice(start, start + 1_000).length,
        },
      }),
    );
  }
  return slug;
}

await ensureTable(client, ctx.store.tableName);
try {
  const stories = [
    { name: '2 reproducers (reference: no aggregates read)', reporters: 2, note: 200 },
    { name: '3 reproducers', reporters: 3, note: 200 },
    { name: '1,000 reproducers', reporters: 1_000, note: 200 },
    { name: '10,000 reproducers (the cap)', reporters: 10_000, note: 200 },
  ];
  const slugs: string[] = [];
  for (const story of stories) {
    log(`writing: ${story.name}`);
    slugs.push(await storyWithReports(`Aggregates bench ${slugs.length}`, story.reporters, story.note));
  }
  const counter = countRoundTrips(client);
  const timings = stories.map(() => [] as number[]);
  const queries = stories.map(() => 0);
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    log(`round ${round + 1} of ${ROUNDS + 2}`);
    for (const [index, slug] of slugs.entries()) {
      counter.reset();
      const start = performance.now();
      const view = await getStory(ctx, undefined, { slug });
      const elapsed = performance.now() - start;
      if (round === 0 && index > 0 && view.aggregates.by_agent_family === undefined) throw new Error(`no aggregates for ${slug}`);
      // The first two rounds warm up the JIT and DynamoDB Local; they are not counted.
      if (round >= 2) timings[index]?.push(elapsed);
      queries[index] = counter.snapshot().Query ?? 0;
    }
  }
  const reference = percentile(timings[0] ?? [], 50);
  log(`\nget_story, ${ROUNDS} reads per story, interleaved:`);
  log('| story | get_story p50 ms | ratio to the reference | Query calls per read (history + aggregates pages) |');
  log('|---|---|---|---|');
  for (const [index, story] of stories.entries()) {
    const p50 = percentile(timings[index] ?? [], 50);
    log(`| ${story.name} | ${ms(p50)} | ${ratio(p50 / reference)} | ${queries[index]} |`);
  }
} finally {
  client.destroy();
  await ddb.stop();
}
// Something left open keeps the event loop alive after the table is printed (seen here, not
// traced); the bench is done, so it ends the process rather than hang.
process.exit(0);
