// `LOREBOOK_BENCH_DDB_ENDPOINT=http://127.0.0.1:<port> node test/bench/rescan-walk.ts`: what the
// capability re-scan's walk costs to find stale stories (src/store/story/story-capability-scan.ts:
// a filtered, projected Scan of the whole table, page by page) against the reference, the walk a
// Query design would make over the same stories (the feed index, keys only, then BatchGetItem of
// each page's METAs for their scanner version). Both walk the same table in the same run,
// alternating. Measured twice: stories alone (META, BODY, REV#1) and stories with 20
// reproduction reports each, since a Scan reads every item and the feed walk only the stories.
// Each shape gets a fresh table on the given DynamoDB Local, dropped at the end.
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { readItems } from '../../src/store/read-items.ts';
import { INDEXES } from '../../src/store/schema.ts';
import type { Store } from '../../src/store/store.ts';
import { scanStoryCapabilities } from '../../src/store/story/story-capability-scan.ts';
import { ms, percentile, ratio } from './stats.ts';

const ENDPOINT = process.env.LOREBOOK_BENCH_DDB_ENDPOINT ?? 'http://127.0.0.1:8600';
const STORIES = Number(process.env.LOREBOOK_BENCH_RESCAN_STORIES ?? 500);
const ROUNDS = Number(process.env.LOREBOOK_BENCH_RESCAN_ROUNDS ?? 5);
const PAGE = 1000;
const log = (line: string): void => void process.stdout.write(`${line}\n`);
const markdown = 'A step of the story.\n'.repeat(150);

function storyItems(index: number, reports: number): Record<string, unknown>[] {
  const slug = `2026-11-01-bench-story-${index}`;
  const at = `2026-11-01T00:00:${String(index % 60).padStart(2, '0')}.${String(index).padStart(3, '0')}Z`;
  const PK = `STORY#${slug}`;
  return [
    {
      PK,
      SK: 'META',
      slug,
      title: `Bench story ${index}`,
      summary: 'A story for the re-scan bench. '.repeat(8),
      revision: 1,
      published_at: at,
      capability: { scanner_version: '1.0.0', tier: 'T1', findings: [], omitted_findings: 0, sha256: 'a'.repeat(64) },
      [INDEXES.feed.partition]: 'FEED#2026-11',
      [INDEXES.feed.sort]: `${at}#${slug}`,
    },
    { PK, SK: 'BODY', markdown, revision: 1 },
    { PK, SK: 'REV#000001', markdown, revision: 1, kind: 'publish' },
    ...Array.from({ length: reports }, (_, report) => ({
      PK,
      SK: `REPRO#acct-${report}`,
      result: 'worked',
      note: 'It worked on my machine after the second step. '.repeat(4),
      counted: true,
    })),
  ];
}

async function seed(store: Store, reports: number): Promise<void> {
  const items = Array.from({ length: STORIES }, (_, index) => storyItems(index, reports)).flat();
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0 && round < 10; round += 1) {
      const output = await store.client.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
      pending = (output.UnprocessedItems?.[store.tableName] ?? []) as typeof pending;
    }
  }
}

/** The re-scan's walk: every page of the filtered Scan; answers the stories it found. */
async function scanWalk(store: Store): Promise<number> {
  let found = 0;
  let from: Awaited<ReturnType<typeof scanStoryCapabilities>>['next'];
  do {
    const page = await scanStoryCapabilities(store, from, PAGE);
    found += page.stories.length;
    from = page.next;
  } while (from !== undefined);
  return found;
}

/** The reference: the feed index's one month, page by page, each page's METAs read by key. */
async function feedWalk(store: Store): Promise<number> {
  let found = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: INDEXES.feed.name,
        KeyConditionExpression: '#pk = :month',
        ExpressionAttributeNames: { '#pk': INDEXES.feed.partition },
        ExpressionAttributeValues: { ':month': 'FEED#2026-11' },
        Limit: 100,
        ExclusiveStartKey: start,
      }),
    );
    const metas = await readItems(
      store,
      (page.Items ?? []).map((item) => ({ PK: String(item.PK), SK: String(item.SK) })),
    );
    found += metas.size;
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return found;
}

async function time(walk: () => Promise<number>): Promise<number> {
  const begin = performance.now();
  const found = await walk();
  if (found !== STORIES) throw new Error(`a walk found ${found} stories, not ${STORIES}`);
  return performance.now() - begin;
}

const client = createStoreClient({ endpoint: ENDPOINT });
log(`rescan-walk bench: ${STORIES} stories, ${ROUNDS} rounds each way, median ms to find every story's scanner version`);
for (const reports of [0, 20]) {
  const store: Store = { client, tableName: `bench-rescan-walk-${reports}-${process.pid}`, now: Date.now };
  await ensureTable(client, store.tableName);
  try {
    await seed(store, reports);
    const scans: number[] = [];
    const feeds: number[] = [];
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      const scan = await time(() => scanWalk(store));
      const feed = await time(() => feedWalk(store));
      if (round === 0) continue;
      scans.push(scan);
      feeds.push(feed);
    }
    const [scan, feed] = [percentile(scans, 50), percentile(feeds, 50)];
    log(
      `  ${3 + reports} items per story (${reports} reports): feed Query + BatchGetItem ${ms(feed)}, filtered Scan ${ms(scan)}, ratio Scan / feed ${ratio(scan / feed)}`,
    );
  } finally {
    await dropTable(client, store.tableName);
  }
}
client.destroy();
