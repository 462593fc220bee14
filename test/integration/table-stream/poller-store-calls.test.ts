// What the poller asks the store on each run, counted on its own clients (an SDK middleware that
// records each command's name, on DynamoDB Local's real answers). DynamoDB Local counts every item
// of a table for a DescribeTable (8 ms at no items, 224 ms at 80,000, BENCHMARKS.md §11) on the
// one thread that answers every request to the store: asked once a run, every second, it held
// every other call to the store for that long. A run asks only calls whose cost does not grow
// with the table: the stream's list, its shards, and a page of records.
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createStoreClient, createStreamsClient } from '../../../src/store/client.ts';
import { eventually } from '../../helpers/eventually.ts';
import { type WatchedPoller, watchStream, writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('table stream poller store calls', { stream: true });

/** The part of a client's middleware stack the count uses: the two clients' stacks differ only in their types. */
interface CommandNames {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
    options: { step: 'initialize'; name: string },
  ): void;
}

/** Every command sent through the client, by name, in order. */
function counted<Client extends DynamoDBDocumentClient | DynamoDBStreamsClient>(client: Client): { client: Client; sent: string[] } {
  const sent: string[] = [];
  (client.middlewareStack as unknown as CommandNames).add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  return { client, sent };
}

let poller: WatchedPoller | undefined;
const store = counted(createStoreClient({ endpoint: testEndpoint() }));
afterAll(async () => {
  await poller?.stop();
  store.client.destroy();
});

describe('the poller on each run', () => {
  it('never describes the table, whose cost grows with every item it holds', async () => {
    const streams = counted(createStreamsClient({ endpoint: testEndpoint() }));
    const written = await writeItems(table.client, table.tableName, 'c', 0, 3);
    poller = watchStream({ endpoint: testEndpoint(), client: store.client, streams: streams.client, tableName: table.tableName });
    const watched = poller;
    await eventually(async () => (watched.delivered().length >= written.length ? true : undefined), 'the records read', 20_000);
    // Idle runs after catching up, then one more record read.
    const listedBefore = streams.sent.filter((name) => name === 'ListStreamsCommand').length;
    await eventually(
      async () => (streams.sent.filter((name) => name === 'ListStreamsCommand').length >= listedBefore + 5 ? true : undefined),
      'five more runs',
      20_000,
    );
    const more = await writeItems(table.client, table.tableName, 'c', 3, 4);
    await eventually(
      async () => (watched.delivered().length >= written.length + more.length ? true : undefined),
      'the last record read',
      20_000,
    );
    await watched.stop();
    poller = undefined;

    expect(watched.delivered()).toEqual([...written, ...more]);
    expect([...store.sent, ...streams.sent]).not.toContain('DescribeTableCommand');
    // The table's stream is found by listing the table's streams, once a run; the checkpoint is read and moved.
    expect(new Set(streams.sent)).toEqual(
      new Set(['ListStreamsCommand', 'DescribeStreamCommand', 'GetShardIteratorCommand', 'GetRecordsCommand']),
    );
    expect(new Set(store.sent)).toEqual(new Set(['GetItemCommand', 'PutItemCommand']));
  });
});
