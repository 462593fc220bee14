// DynamoDB Local stopped under a running poller and started again on the same port and data:
// the failed runs are logged and retried after a bounded backoff, and once the store is back every
// record written before and after the outage is handed over, in order, none skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../integrations/dynamodb-local/index.ts';
import { ensureTable } from '../../../src/store/bootstrap.ts';
import { createStoreClient } from '../../../src/store/client.ts';
import { eventually } from '../../helpers/eventually.ts';
import { type WatchedPoller, watchStream, writeItems } from '../../helpers/stream-poller.ts';

const TABLE = 'lorebook-outage';
const dataDir = mkdtempSync(join(tmpdir(), 'lorebook-poller-outage-'));
let ddb: DynamoDbLocal | undefined;
let poller: WatchedPoller | undefined;
afterAll(async () => {
  await poller?.stop();
  await ddb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('DynamoDB Local cut and restored under the poller', () => {
  it('the poller logs the failed runs, backs off, and after the restart hands over every record once, in order', async () => {
    // The first start picks its port (and tries another if one is taken meanwhile: a port found free, then
    // bound by the JVM a second later, was taken by another suite's process in between on a busy run);
    // the restart takes the same port, the one the poller keeps calling.
    ddb = await startDynamoDbLocal({ dataDir });
    const port = ddb.port;
    const client = createStoreClient({ endpoint: ddb.endpoint, maxAttempts: 1, requestTimeoutMs: 2_000 });
    await ensureTable(client, TABLE);
    const before = await writeItems(client, TABLE, 'before', 0, 5);
    poller = watchStream({ endpoint: ddb.endpoint, client, tableName: TABLE, intervalMs: 50, maxBackoffMs: 400, batchSize: 2 });
    const watched = poller;
    await eventually(async () => (watched.delivered().length >= before.length ? true : undefined), 'delivered before the cut', 20_000);

    await ddb.stop();
    await eventually(
      async () => (watched.lines.filter((line) => line.includes('retrying in')).length >= 3 ? true : undefined),
      'failed runs logged while the store is down',
      20_000,
    );
    const backoffs = watched.lines.flatMap((line) => /retrying in (\d+) ms/.exec(line)?.[1] ?? []).map(Number);
    expect(Math.max(...backoffs)).toBeLessThanOrEqual(400);

    ddb = await startDynamoDbLocal({ port, dataDir });
    const after = await writeItems(client, TABLE, 'after', 0, 5);
    await eventually(
      async () => (watched.delivered().length >= before.length + after.length ? true : undefined),
      'delivered after the restart',
      30_000,
    );
    expect(watched.delivered()).toEqual([...before, ...after]);
    // Logged once the run that delivered them has ended.
    await eventually(
      async () => (watched.lines.some((line) => /reading again after \d+ failed run/.test(line)) ? true : undefined),
      'the recovery logged',
      20_000,
    );
    client.destroy();
  });
});
