// Reads beside the table-stream poller on a large table (test/bench/table-stream.ts): DynamoDB
// Local answers every request on one thread, so whatever the poller asks once a run, every second,
// every other call to the store waits behind. A GetItem's p50/p99 with an idle poller running
// (caught up, asking once a second as `npm start` does), against the same reads with no poller in
// the same run (half before the poller starts, half after it stopped); and, for scale, what a
// DescribeTable costs there (DynamoDB Local counts every item for it: the poller asked one each run
// until 2026-12-05).
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { BatchWriteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { startCountingPoller } from './counting-poller.ts';
import { ms, percentile, ratio } from './stats.ts';

export interface ReadsBesidePoller {
  items: number;
  alone: number[];
  besidePoller: number[];
  describeTableMs: number[];
}

/** Reads one after another with a random pause of up to PAUSE_MS, so they land at every point of the poller's second. */
const PAUSE_MS = 20;

async function fill(client: DynamoDBDocumentClient, tableName: string, items: number, log: (line: string) => void): Promise<void> {
  const body = 'x'.repeat(800);
  for (let written = 0; written < items; written += 25) {
    const batch = Array.from({ length: Math.min(25, items - written) }, (_, index) => ({
      PutRequest: { Item: { PK: `ITEM#${written + index}`, SK: 'META', body } },
    }));
    await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch } }));
    if ((written + 25) % 10_000 === 0) log(`  ${written + 25} of ${items} items written`);
  }
}

async function reads(client: DynamoDBDocumentClient, tableName: string, items: number, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const started = performance.now();
    await client.send(new GetCommand({ TableName: tableName, Key: { PK: `ITEM#${(n * 7919) % items}`, SK: 'META' } }));
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * PAUSE_MS));
  }
  return latencies;
}

export async function readsBesidePoller(
  client: DynamoDBDocumentClient,
  streams: DynamoDBStreamsClient,
  options: { items: number; reads: number; intervalMs: number; log: (line: string) => void },
): Promise<ReadsBesidePoller> {
  const { items, log } = options;
  const tableName = `bench-table-stream-reads-${Date.now()}`;
  await ensureTable(client, tableName);
  try {
    await fill(client, tableName, items, log);
    const describeTableMs: number[] = [];
    for (let n = 0; n < 5; n += 1) {
      const started = performance.now();
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      describeTableMs.push(performance.now() - started);
    }
    // The reference reads: half before the poller starts, half after it stopped, so neither side
    // always meets the colder or the warmer store.
    const alone = await reads(client, tableName, items, options.reads / 2);
    const poller = startCountingPoller(
      { client, streams, tableName, checkpoint: { namespace: 'bench-reads' }, batchSize: 1000, intervalMs: options.intervalMs, log },
      items,
    );
    let besidePoller: number[];
    try {
      // Caught up on the fill's records first: the reads meet its idle runs, as a quiet server's do.
      await poller.caughtUp;
      besidePoller = await reads(client, tableName, items, options.reads);
    } finally {
      await poller.stop();
    }
    alone.push(...(await reads(client, tableName, items, options.reads / 2)));
    return { items, alone, besidePoller, describeTableMs };
  } finally {
    await dropTable(client, tableName);
  }
}

export function describeReadsBesidePoller(result: ReadsBesidePoller): string {
  const line = (values: number[]) => `p50 ${ms(percentile(values, 50))} ms, p99 ${ms(percentile(values, 99))} ms`;
  return `GetItem on a table of ${result.items} items, ${result.alone.length} reads each: no poller ${line(result.alone)}; beside the idle poller ${line(result.besidePoller)} (p99 ${ratio(percentile(result.besidePoller, 99) / percentile(result.alone, 99))} of no poller); one DescribeTable there: median ${ms(percentile(result.describeTableMs, 50))} ms`;
}
