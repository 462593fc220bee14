// A table deleted and made again under a running poller has a new stream with shards of its own:
// the poller follows it, from its oldest record, and hands over what is written to the new table.
import { afterAll, describe, expect, it } from 'vitest';
import { dropTable, ensureTable } from '../../../src/store/bootstrap.ts';
import { createStoreClient } from '../../../src/store/client.ts';
import { eventually } from '../../helpers/eventually.ts';
import { type WatchedPoller, watchStream, writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, testTableName } from '../../helpers/test-table.ts';

const client = createStoreClient({ endpoint: testEndpoint() });
const tableName = testTableName('poller table recreated');
let poller: WatchedPoller | undefined;
afterAll(async () => {
  await poller?.stop();
  await dropTable(client, tableName);
  client.destroy();
});

describe('the table made again under the poller', () => {
  it("is followed to its new stream: the new table's records are handed over", async () => {
    await ensureTable(client, tableName);
    const before = await writeItems(client, tableName, 'old', 0, 2);
    poller = watchStream({ endpoint: testEndpoint(), client, tableName, intervalMs: 50, maxBackoffMs: 200 });
    const watched = poller;
    await eventually(async () => (watched.delivered().length >= before.length ? true : undefined), 'the first table read', 20_000);
    await dropTable(client, tableName);
    await ensureTable(client, tableName);
    const after = await writeItems(client, tableName, 'new', 0, 2);
    await eventually(
      async () => (watched.delivered().length >= before.length + after.length ? true : undefined),
      'the new table read',
      20_000,
    );
    expect(watched.delivered()).toEqual([...before, ...after]);
  });
});
