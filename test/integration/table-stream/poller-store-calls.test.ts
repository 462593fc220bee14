// What the poller asks the store on each run, counted on its own clients (round-trips.ts: an SDK
// middleware that counts each command, on DynamoDB Local's real answers). DynamoDB Local counts
// every item of a table for a DescribeTable (8 ms at no items, 224 ms at 80,000, BENCHMARKS.md §11)
// on the one thread that answers every request to the store: asked once a run, every second, it held
// every other call to the store for that long. A run asks only calls whose cost does not grow
// with the table: the stream's list, its shards, and a page of records.
import { afterAll, describe, expect, it } from 'vitest';
import { createStoreClient, createStreamsClient } from '../../../src/store/client.ts';
import { eventually } from '../../helpers/eventually.ts';
import { countRoundTrips } from '../../helpers/round-trips.ts';
import { type WatchedPoller, watchStream, writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('table stream poller store calls', { stream: true });

let poller: WatchedPoller | undefined;
const storeClient = createStoreClient({ endpoint: testEndpoint() });
const store = countRoundTrips(storeClient);
afterAll(async () => {
  await poller?.stop();
  storeClient.destroy();
});

describe('the poller on each run', () => {
  it('never describes the table, whose cost grows with every item it holds', async () => {
    const streamsClient = createStreamsClient({ endpoint: testEndpoint() });
    const streams = countRoundTrips(streamsClient);
    const written = await writeItems(table.client, table.tableName, 'c', 0, 3);
    poller = watchStream({ endpoint: testEndpoint(), client: storeClient, streams: streamsClient, tableName: table.tableName });
    const watched = poller;
    await eventually(async () => (watched.delivered().length >= written.length ? true : undefined), 'the records read', 20_000);
    // Idle runs after catching up, then one more record read.
    const listed = (): number => streams.snapshot().ListStreams ?? 0;
    const listedBefore = listed();
    await eventually(async () => (listed() >= listedBefore + 5 ? true : undefined), 'five more runs', 20_000);
    const more = await writeItems(table.client, table.tableName, 'c', 3, 4);
    await eventually(
      async () => (watched.delivered().length >= written.length + more.length ? true : undefined),
      'the last record read',
      20_000,
    );
    await watched.stop();
    poller = undefined;

    expect(watched.delivered()).toEqual([...written, ...more]);
    expect({ ...store.snapshot(), ...streams.snapshot() }).not.toHaveProperty('DescribeTable');
    // The table's stream is found by listing the table's streams, once a run; the checkpoint is read and moved.
    expect(new Set(Object.keys(streams.snapshot()))).toEqual(new Set(['ListStreams', 'DescribeStream', 'GetShardIterator', 'GetRecords']));
    expect(new Set(Object.keys(store.snapshot()))).toEqual(new Set(['GetItem', 'PutItem']));
  });
});
