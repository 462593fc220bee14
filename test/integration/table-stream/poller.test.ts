// The table-stream poller on DynamoDB Local's real stream: batches in write order in the shape the
// stream Lambda gets, a checkpoint per shard that a restarted poller resumes after, a consumer that
// throws gets the same batch again, the pollers' own checkpoint writes never reach a consumer, and
// stop() returns promptly whatever the poller is waiting for.

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStoreClient, createStreamsClient } from '../../../src/store/client.ts';
import { streamCheckpointPrefix } from '../../../src/store/keys.ts';
import { ageFirstIterator } from '../../helpers/aged-iterator.ts';
import { eventually } from '../../helpers/eventually.ts';
import { readStreamRecords } from '../../helpers/local-stream.ts';
import { recordSk, type WatchedPoller, watchStream, writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';
import { trimNextPosition } from '../../helpers/trimmed-position.ts';

const table = useTestTable('table stream poller', { stream: true });
const running: WatchedPoller[] = [];

function watch(options: Partial<Parameters<typeof watchStream>[0]> = {}): WatchedPoller {
  const poller = watchStream({ endpoint: testEndpoint(), client: table.client, tableName: table.tableName, ...options });
  running.push(poller);
  return poller;
}

async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((poller) => poller.stop()));
}

const caughtUp = (poller: WatchedPoller, count: number) => async () => (poller.delivered().length >= count ? true : undefined);

async function checkpoints(namespace: string): Promise<Record<string, unknown>[]> {
  const { Items } = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `${streamCheckpointPrefix}${namespace}` },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('the table-stream poller on DynamoDB Local', () => {
  let written: string[] = [];
  beforeAll(async () => {
    written = await writeItems(table.client, table.tableName, 'a', 0, 23);
  });
  afterAll(stopAll);

  it('hands every record over once, in write order, in batches of at most batchSize, shaped as the stream Lambda gets them', async () => {
    const poller = watch({ batchSize: 5, checkpoint: { namespace: 'order' } });
    await eventually(caughtUp(poller, written.length), 'all records delivered', 20_000);
    await stopAll();
    expect(poller.delivered()).toEqual(written);
    expect(poller.batches.every((batch) => batch.length <= 5)).toBe(true);
    expect(poller.batches.length).toBeGreaterThanOrEqual(5);
    // The same records as DynamoDB Local's own wire format, which is what Lambda's event carries.
    const wire = (await readStreamRecords(testEndpoint(), table.client, table.tableName)).filter(
      (record) => !record.dynamodb?.Keys?.PK?.S?.startsWith(streamCheckpointPrefix),
    );
    expect(poller.batches.flat()).toEqual(wire.slice(0, written.length));
  });

  it('a poller started again resumes after its checkpoint: nothing finished is handed over twice, later writes arrive', async () => {
    const first = watch({ batchSize: 4, checkpoint: { namespace: 'resume' } });
    await eventually(caughtUp(first, written.length), 'first poller caught up', 20_000);
    await stopAll();
    const later = await writeItems(table.client, table.tableName, 'b', 0, 3);
    const second = watch({ batchSize: 4, checkpoint: { namespace: 'resume' } });
    await eventually(caughtUp(second, later.length), 'later writes delivered', 20_000);
    await stopAll();
    expect(second.delivered()).toEqual(later);
    written.push(...later);
  });

  it('a namespace with no checkpoint starts at the oldest record held (TRIM_HORIZON)', async () => {
    const fresh = watch({ batchSize: 100, checkpoint: { namespace: 'fresh' } });
    await eventually(caughtUp(fresh, written.length), 'fresh poller caught up', 20_000);
    await stopAll();
    expect(fresh.delivered()).toEqual(written);
  });

  it('a batch whose consumer throws is handed over again, the checkpoint unmoved meanwhile, and the failure is logged', async () => {
    let throwing = true;
    const attempts: string[][] = [];
    const poller = watch({
      batchSize: 100,
      intervalMs: 20,
      maxBackoffMs: 100,
      checkpoint: { namespace: 'throws' },
      async onRecords(records) {
        attempts.push(records.map(recordSk));
        if (throwing) throw new Error('the index is busy');
      },
    });
    await eventually(async () => (attempts.length >= 3 ? true : undefined), 'three attempts', 20_000);
    expect(poller.batches).toEqual([]);
    expect(await checkpoints('throws')).toEqual([]);
    throwing = false;
    await eventually(caughtUp(poller, written.length), 'delivered once the consumer recovers', 20_000);
    // The checkpoint moves just after the consumer returns: wait for it rather than race it.
    await eventually(async () => ((await checkpoints('throws')).length > 0 ? true : undefined), 'the checkpoint moved', 20_000);
    await stopAll();
    expect(attempts.every((attempt) => attempt[0] === written[0])).toBe(true);
    expect(poller.delivered()).toEqual(written);
    expect(poller.lines.some((line) => line.includes('failed in its consumer: the index is busy'))).toBe(true);
    const [stored] = await checkpoints('throws');
    expect(stored?.drained).toBe(false);
  });

  it('an iterator that expired (DynamoDB Local refuses it) is fetched again from the last finished record: nothing skipped or repeated', async () => {
    const streams = createStreamsClient({ endpoint: testEndpoint() });
    const agedIterators = ageFirstIterator(streams);
    const poller = watch({ streams, batchSize: 100, checkpoint: { namespace: 'expired' } });
    await eventually(caughtUp(poller, written.length), 'caught up', 20_000);
    await stopAll();
    expect(agedIterators()).toBe(1);
    expect(poller.delivered()).toEqual(written);
    expect(poller.lines).toEqual([]);
  });

  it('a checkpoint whose position was trimmed off the stream is read again from the oldest record held, logged, never stuck', async () => {
    const first = watch({ batchSize: 100, checkpoint: { namespace: 'trimmed' } });
    await eventually(caughtUp(first, written.length), 'a checkpoint written', 20_000);
    await stopAll();
    const streams = createStreamsClient({ endpoint: testEndpoint() });
    const trimmed = trimNextPosition(streams);
    const later = await writeItems(table.client, table.tableName, 't', 0, 2);
    const second = watch({ streams, batchSize: 100, checkpoint: { namespace: 'trimmed' } });
    await eventually(caughtUp(second, written.length + later.length), 'read again from the oldest record', 20_000);
    await stopAll();
    expect(trimmed()).toBe(1);
    expect(second.delivered()).toEqual([...written, ...later]);
    expect(second.lines.some((line) => /were trimmed before they were read; reading from the oldest one held/.test(line))).toBe(true);
    written.push(...later);
  });

  it('runs never overlap: a slow consumer is never entered while it is still running', async () => {
    let inside = 0;
    let most = 0;
    const poller = watch({
      batchSize: 2,
      intervalMs: 1,
      checkpoint: { namespace: 'slow' },
      async onRecords() {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inside -= 1;
      },
    });
    await eventually(caughtUp(poller, written.length), 'caught up', 20_000);
    await stopAll();
    expect(most).toBe(1);
    expect(poller.delivered()).toEqual(written);
  });

  it("the pollers' own checkpoint writes never reach a consumer and cost no further writes once caught up", async () => {
    const poller = watch({ batchSize: 3, intervalMs: 20, checkpoint: { namespace: 'quiet' } });
    await eventually(caughtUp(poller, written.length), 'caught up', 20_000);
    const countRecords = async () => (await readStreamRecords(testEndpoint(), table.client, table.tableName)).length;
    const settled = await countRecords();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await countRecords()).toBe(settled);
    await stopAll();
    expect(poller.delivered()).toEqual(written);
    // The checkpoint stands at or after the last record delivered (past checkpoint writes it read).
    const [stored] = await checkpoints('quiet');
    const lastDelivered = poller.batches.at(-1)?.at(-1)?.dynamodb?.SequenceNumber ?? '0';
    expect(BigInt(String(stored?.sequence_number))).toBeGreaterThanOrEqual(BigInt(lastDelivered));
  });
});

describe('stop() is prompt', () => {
  const sockets = new Set<Socket>();
  let silent: Server;
  beforeAll(async () => {
    await writeItems(table.client, table.tableName, 'p', 0, 1);
    // A server that accepts connections and never answers: a store call in flight hangs on it.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((closed) => silent.close(closed));
  });

  const timeStop = async (poller: WatchedPoller): Promise<number> => {
    const started = performance.now();
    await poller.stop();
    return performance.now() - started;
  };

  it('while it waits out a long interval', async () => {
    const poller = watchStream({ endpoint: testEndpoint(), client: table.client, tableName: table.tableName, intervalMs: 600_000 });
    await eventually(async () => (poller.batches.length > 0 ? true : undefined), 'a first run', 20_000);
    expect(await timeStop(poller)).toBeLessThan(2_000);
  });

  it('while a store call hangs on a server that never answers', async () => {
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const client = createStoreClient({ endpoint, requestTimeoutMs: 600_000 });
    const poller = watchStream({ endpoint, client, tableName: table.tableName });
    await eventually(async () => (sockets.size > 0 ? true : undefined), 'a call in flight', 20_000);
    expect(await timeStop(poller)).toBeLessThan(2_000);
    client.destroy();
  });

  it('while it backs off after failed runs', async () => {
    const client = createStoreClient({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    const poller = watchStream({
      endpoint: 'http://127.0.0.1:9',
      client,
      tableName: table.tableName,
      intervalMs: 600_000,
      maxBackoffMs: 600_000,
    });
    await eventually(async () => (poller.lines.some((line) => line.includes('retrying in')) ? true : undefined), 'a failed run', 20_000);
    expect(await timeStop(poller)).toBeLessThan(2_000);
    client.destroy();
  });
});
