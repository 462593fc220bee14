// The seam `npm start` reads the table stream through: no poller at all while no consumer is
// registered; with consumers, each is handed every batch in order, and one that throws has the
// batch handed again to all of them, the log naming it.
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalStream, type StreamConsumer, startLocalStream } from '../../../src/cli/local-stream.ts';
import { eventually } from '../../helpers/eventually.ts';
import { recordSk, writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('local stream seam', { stream: true });
const store = () => ({ client: table.client, tableName: table.tableName, now: Date.now });
let running: LocalStream | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function recording(name: string, fail: () => boolean): StreamConsumer & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    name,
    seen,
    async onRecords(records: readonly DynamoDBRecord[]) {
      seen.push(records.map(recordSk));
      if (fail()) throw new Error('not now');
    },
  };
}

describe('startLocalStream', () => {
  it('starts nothing while no consumer is registered', () => {
    const lines: string[] = [];
    expect(startLocalStream(store(), [], { endpoint: testEndpoint(), intervalMs: 50, log: (line) => lines.push(line) })).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('hands every batch to each consumer in order; a consumer that throws has the batch handed to all of them again', async () => {
    const written = await writeItems(table.client, table.tableName, 's', 0, 4);
    let failures = 1;
    const first = recording('first', () => false);
    const second = recording('second', () => failures-- > 0);
    const lines: string[] = [];
    running = startLocalStream(store(), [first, second], { endpoint: testEndpoint(), intervalMs: 50, log: (line) => lines.push(line) });
    await eventually(async () => (second.seen.length >= 2 ? true : undefined), 'the batch handed over again', 20_000);
    expect(first.seen).toEqual([written, written]);
    expect(second.seen).toEqual([written, written]);
    expect(lines).toContain('lorebook: reading the table stream for first, second');
    expect(lines.some((line) => line.includes('failed in its consumer: second: not now'))).toBe(true);
  });
});
