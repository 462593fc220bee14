// Runs the table-stream poller against a test table and keeps what its consumer was handed, batch
// by batch, so a test can compare it with the records DynamoDB wrote.
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createStreamsClient } from '../../src/store/client.ts';
import {
  startTableStreamPoller,
  type TableStreamPoller,
  type TableStreamPollerOptions,
} from '../../src/store/table-stream/table-stream.ts';

export interface WatchedPoller {
  batches: DynamoDBRecord[][];
  lines: string[];
  /** The SKs of the delivered records' items, in delivery order. */
  delivered(): string[];
  stop(): Promise<void>;
}

export interface WatchOptions extends Partial<Omit<TableStreamPollerOptions, 'client' | 'streams' | 'tableName' | 'log'>> {
  endpoint: string;
  /** A Streams client of the test's own (destroyed by stop()); one on `endpoint` when omitted. */
  streams?: DynamoDBStreamsClient;
  client: DynamoDBDocumentClient;
  tableName: string;
}

export const recordSk = (record: DynamoDBRecord): string => record.dynamodb?.Keys?.SK?.S ?? '?';

export function watchStream(options: WatchOptions): WatchedPoller {
  const { endpoint, client, tableName, onRecords, ...rest } = options;
  const batches: DynamoDBRecord[][] = [];
  const lines: string[] = [];
  const streams = options.streams ?? createStreamsClient({ endpoint });
  const poller: TableStreamPoller = startTableStreamPoller({
    intervalMs: 50,
    checkpoint: { namespace: 'test' },
    ...rest,
    client,
    streams,
    tableName,
    log: (line) => lines.push(line),
    async onRecords(records) {
      await onRecords?.(records);
      batches.push(records);
    },
  });
  return {
    batches,
    lines,
    delivered: () => batches.flat().map(recordSk),
    async stop() {
      await poller.stop();
      streams.destroy();
    },
  };
}

/**
 * Puts items T / <prefix><n> for n in [from, to), one write (one stream record) each, in order;
 * each holds every attribute type the stream's two shapes spell differently (binary, nested).
 */
export async function writeItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  prefix: string,
  from: number,
  to: number,
): Promise<string[]> {
  const sks: string[] = [];
  for (let n = from; n < to; n += 1) {
    const SK = `${prefix}${String(n).padStart(4, '0')}`;
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          PK: 'T',
          SK,
          n,
          bytes: Uint8Array.of(n % 256, 1, 2),
          nested: { list: [n, 'x', Uint8Array.of(3)], tags: new Set(['a', 'b']) },
        },
      }),
    );
    sks.push(SK);
  }
  return sks;
}
