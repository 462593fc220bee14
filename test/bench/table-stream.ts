// The table-stream poller (src/store/table-stream/) measured against the bare Streams API in the
// same run: catching up on a backlog (every record handed to a consumer, a checkpoint written per
// batch) against reading the same records with a plain GetRecords loop (no consumer, no
// checkpoint), as a ratio; the time from a committed write to its delivery at npm start's
// default interval; and reads beside the idle poller on a large table against reads with none
// (table-stream-reads.ts). Prints its figures; LOREBOOK_TEST_DDB_ENDPOINT reuses a running DynamoDB
// Local instead of starting one; LOREBOOK_BENCH_QUICK=1 is a smoke test.
//   node test/bench/table-stream.ts
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient, createStreamsClient } from '../../src/store/client.ts';
import { startTableStreamPoller } from '../../src/store/table-stream/table-stream.ts';
import { startCountingPoller } from './counting-poller.ts';
import { ms, percentile, ratio, spread } from './stats.ts';
import { describeReadsBesidePoller, readsBesidePoller } from './table-stream-reads.ts';

const QUICK = process.env.LOREBOOK_BENCH_QUICK === '1';
const RECORDS = QUICK ? 200 : 2_000;
const RUNS = QUICK ? 1 : 3;
const LATENCY_WRITES = QUICK ? 5 : 20;
/** Items of the table the reads beside the poller meet: a local table some thousands of stories in. */
const LARGE_TABLE = QUICK ? 2_000 : 40_000;
const READS = QUICK ? 100 : 1_000;
/** npm start's LOREBOOK_STREAM_POLL_INTERVAL_MS default. */
const INTERVAL_MS = 1_000;
const BATCH = 100;
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const shared = process.env.LOREBOOK_TEST_DDB_ENDPOINT;
const ddb = shared === undefined ? await startDynamoDbLocal({ log }) : undefined;
const endpoint = shared ?? (ddb?.endpoint as string);
const client = createStoreClient({ endpoint });
const streams = createStreamsClient({ endpoint });

async function writeBacklog(tableName: string, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    await client.send(new PutCommand({ TableName: tableName, Item: { PK: 'B', SK: String(n).padStart(6, '0'), n } }));
  }
}

/** The reference: every record of the stream read with GetRecords pages, nothing else. */
async function plainRead(tableName: string): Promise<number> {
  const arn = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn as string;
  const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription?.Shards ?? [];
  let read = 0;
  for (const shard of shards) {
    let iterator = (
      await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }))
    ).ShardIterator;
    while (iterator !== undefined) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: BATCH }));
      read += page.Records?.length ?? 0;
      if ((page.Records?.length ?? 0) === 0) break;
      iterator = page.NextShardIterator;
    }
  }
  return read;
}

/** The poller from no checkpoint until `count` records were handed over. */
async function pollerCatchUp(tableName: string, namespace: string, count: number): Promise<void> {
  const poller = startCountingPoller(
    { client, streams, tableName, checkpoint: { namespace }, batchSize: BATCH, intervalMs: INTERVAL_MS, log },
    count,
  );
  await poller.caughtUp;
  await poller.stop();
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Write → delivery, one write at a time, at the default interval. */
async function deliveryLatency(
  tableName: string,
  pollerClient: DynamoDBDocumentClient,
  streamsClient: DynamoDBStreamsClient,
): Promise<number[]> {
  const waiting = new Map<string, (at: number) => void>();
  const poller = startTableStreamPoller({
    client: pollerClient,
    streams: streamsClient,
    tableName,
    checkpoint: { namespace: 'latency' },
    batchSize: BATCH,
    intervalMs: INTERVAL_MS,
    log,
    async onRecords(records) {
      const at = performance.now();
      for (const record of records) waiting.get(record.dynamodb?.Keys?.SK?.S ?? '')?.(at);
    },
  });
  const latencies: number[] = [];
  for (let n = 0; n < LATENCY_WRITES; n += 1) {
    const SK = `latency-${n}`;
    const arrived = new Promise<number>((resolve) => waiting.set(SK, resolve));
    await client.send(new PutCommand({ TableName: tableName, Item: { PK: 'L', SK } }));
    const written = performance.now();
    latencies.push((await arrived) - written);
    // Writes land at random points of the poller's pause, as real ones do.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * INTERVAL_MS));
  }
  await poller.stop();
  return latencies;
}

try {
  log(
    `bench: table-stream poller, ${RECORDS} records, batches of ${BATCH}, ${RUNS} run(s)${QUICK ? ' (QUICK: a smoke test, not a result)' : ''}`,
  );
  const plain: number[] = [];
  const polled: number[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const tableName = `bench-table-stream-${Date.now()}`;
    await ensureTable(client, tableName);
    await writeBacklog(tableName, RECORDS);
    // Alternated, so neither always runs on a warmer store.
    const order = run % 2 === 1 ? ['plain', 'poller'] : ['poller', 'plain'];
    for (const which of order) {
      if (which === 'plain') plain.push(await timed(() => plainRead(tableName)));
      else polled.push(await timed(() => pollerCatchUp(tableName, `bench-${run}`, RECORDS)));
    }
    await dropTable(client, tableName);
  }
  const p = spread(polled);
  const r = spread(plain);
  log(
    `catch-up of ${RECORDS} records: plain GetRecords loop median ${ms(r.median)} ms; poller median ${ms(p.median)} ms (${ratio(p.median / r.median)} the plain loop; min ${ms(p.min)}, max ${ms(p.max)})`,
  );

  const tableName = `bench-table-stream-latency-${Date.now()}`;
  await ensureTable(client, tableName);
  const latencies = await deliveryLatency(tableName, client, streams);
  await dropTable(client, tableName);
  log(
    `write → delivery at a ${INTERVAL_MS} ms interval, ${latencies.length} writes: median ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms, max ${ms(Math.max(...latencies))} ms (${ratio(percentile(latencies, 50) / INTERVAL_MS)} the interval at the median)`,
  );
  log(
    describeReadsBesidePoller(await readsBesidePoller(client, streams, { items: LARGE_TABLE, reads: READS, intervalMs: INTERVAL_MS, log })),
  );
} finally {
  streams.destroy();
  client.destroy();
  await ddb?.stop();
}
