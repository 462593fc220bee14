// The table stream under `npm start` (docs/design.md#table-stream): DynamoDB Local's stream read by the
// poller (src/store/table-stream/) and each batch handed to every registered consumer, in the
// order they are listed. Nothing is read while no consumer is registered. One checkpoint for the
// whole list: a consumer that throws has the batch delivered again to every consumer, so each must
// be safe to be handed a batch twice (the cloud's stream Lambda redelivers the same way).
import type { DynamoDBRecord } from 'aws-lambda';
import { createStreamsClient } from '../store/client.ts';
import type { Store } from '../store/store.ts';
import { startTableStreamPoller } from '../store/table-stream/table-stream.ts';

/** Something `npm start` runs on the table's stream records, as the stream Lambda would. */
export interface StreamConsumer {
  /** Named in the log when it fails. */
  name: string;
  /** One batch, in shard order; throwing has it delivered again later. */
  onRecords(records: readonly DynamoDBRecord[]): Promise<void>;
}

export interface LocalStreamOptions {
  /** DynamoDB Local's endpoint: it serves the Streams API too. */
  endpoint: string;
  intervalMs: number;
  log(line: string): void;
}

export interface LocalStream {
  stop(): Promise<void>;
}

/**
 * Every `npm start` on one store shares this namespace: the consumers' effects are in the store,
 * so a process resuming where another one finished misses nothing it would have done.
 */
export const LOCAL_STREAM_NAMESPACE = 'npm-start';

/** Starts reading the stream for `consumers`; undefined (nothing runs) when there are none. */
export function startLocalStream(store: Store, consumers: readonly StreamConsumer[], options: LocalStreamOptions): LocalStream | undefined {
  if (consumers.length === 0) return undefined;
  const streams = createStreamsClient({ endpoint: options.endpoint });
  const poller = startTableStreamPoller({
    client: store.client,
    streams,
    tableName: store.tableName,
    checkpoint: { namespace: LOCAL_STREAM_NAMESPACE },
    intervalMs: options.intervalMs,
    log: options.log,
    now: store.now,
    async onRecords(records) {
      for (const consumer of consumers) {
        try {
          await consumer.onRecords(records);
        } catch (error) {
          throw new Error(`${consumer.name}: ${(error as Error).message ?? String(error)}`, { cause: error });
        }
      }
    },
  });
  options.log(`lorebook: reading the table stream for ${consumers.map((consumer) => consumer.name).join(', ')}`);
  return {
    async stop() {
      await poller.stop();
      streams.destroy();
    },
  };
}
