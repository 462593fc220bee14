// A table's DynamoDB stream read by polling, for where no Lambda event source mapping runs it
// (`npm start` on DynamoDB Local, which serves the Streams API on its own endpoint). Batches are
// handed over in the shape the stream Lambda gets (aws-lambda `DynamoDBRecord`), per shard in
// order, a closed parent shard before its children. Delivery is at-least-once: the checkpoint of a
// shard (an item in the table, forward-only) moves after its consumers finished a batch, so a
// restarted process resumes after the last finished batch and may see that batch's successor
// twice, never miss it. One run at a time; a failed run (a consumer threw, the store is
// unreachable) is logged and retried after a bounded backoff, from the page it failed on (a
// shard's iterator moves only past a finished page, and DynamoDB Local keeps honouring it across
// a restart on the same data).
import { DescribeStreamCommand, type DynamoDBStreamsClient, type Shard } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { type CheckpointPlace, readCheckpoint } from './checkpoint-items.ts';
import { newestStreamArn } from './newest-stream.ts';
import { readableShards, type ShardInLineage, shardsInLineage } from './shard-lineage.ts';
import { ConsumerFailed, readShard, type ShardReading, type ShardState } from './shard-reader.ts';

export interface TableStreamPollerOptions {
  /** The store's client: it keeps the checkpoints. */
  client: DynamoDBDocumentClient;
  /** The Streams API of the same store (src/store/client.ts, createStreamsClient). */
  streams: DynamoDBStreamsClient;
  tableName: string;
  /**
   * Checkpoints are kept per namespace: pollers sharing one resume from the furthest any of them
   * finished; a poller whose consumers keep their effects in its own memory needs one of its own.
   */
  checkpoint: { namespace: string };
  /** One batch, in shard order. Throwing leaves the checkpoint before the batch: it comes again. */
  onRecords(records: DynamoDBRecord[]): Promise<void>;
  /** The pause after a run that caught up. */
  intervalMs: number;
  /** Records per batch (GetRecords' Limit), as a Lambda event source mapping's batch size. Default 100. */
  batchSize?: number;
  /** The longest pause after failed runs (the pause doubles from intervalMs). Default 30 s. */
  maxBackoffMs?: number;
  log(line: string): void;
  now?: () => number;
}

export interface TableStreamPoller {
  /** Ends the pause or the store call in progress, waits for a batch its consumers are running. */
  stop(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 100;
const DEFAULT_MAX_BACKOFF_MS = 30_000;
/** Pages read from one shard in one run: a long backlog yields to the other shards, then continues. */
const PAGES_PER_RUN = 10;
/** DescribeStream pages of up to 100 shards; a stream holds a few dozen over its 24 h. */
const MAX_SHARD_PAGES = 100;

export function startTableStreamPoller(options: TableStreamPollerOptions): TableStreamPoller {
  const { client, streams, tableName, log } = options;
  const now = options.now ?? Date.now;
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const controller = new AbortController();
  const abortSignal = controller.signal;
  const states = new Map<string, ShardState>();
  const drained = new Set<string>();

  const reading = (arn: string): ShardReading => ({
    streams,
    place: { client, tableName, namespace: options.checkpoint.namespace, streamArn: arn } satisfies CheckpointPlace,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    onRecords: options.onRecords,
    log,
    now,
    abortSignal,
  });

  /** Asked every run: a table deleted and made again has a new stream, with shards of its own. */
  const currentStream = (): Promise<string> => newestStreamArn(streams, tableName, abortSignal);

  const listShards = async (arn: string): Promise<ShardInLineage[]> => {
    const shards: Shard[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_SHARD_PAGES; page += 1) {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: arn, ...(after === undefined ? {} : { ExclusiveStartShardId: after }) }),
        { abortSignal },
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      after = StreamDescription?.LastEvaluatedShardId;
      if (after === undefined) break;
    }
    return shardsInLineage(shards);
  };

  /** What this process knows of a shard, read from its checkpoint the first time it is seen. */
  const stateOf = async (place: CheckpointPlace, shardId: string): Promise<ShardState | undefined> => {
    const known = states.get(shardId);
    if (known !== undefined) return known;
    const checkpoint = await readCheckpoint(place, shardId, abortSignal);
    if (checkpoint.drained) {
      drained.add(shardId);
      return undefined;
    }
    const state: ShardState = { shardId, ...(checkpoint.sequenceNumber === undefined ? {} : { finished: checkpoint.sequenceNumber }) };
    states.set(shardId, state);
    return state;
  };

  /** One run over every readable shard; answers whether records are waiting past its pages. */
  const runOnce = async (): Promise<boolean> => {
    const arn = await currentStream();
    const shards = await listShards(arn);
    forgetUnlisted(shards);
    const read = reading(arn);
    let more = false;
    // A shard read to its end makes its children readable in the same run.
    for (let round = 0; round <= shards.length; round += 1) {
      let drainedOne = false;
      for (const shard of readableShards(shards, drained)) {
        const state = await stateOf(read.place, shard.shardId);
        if (state === undefined) {
          drainedOne = true;
          continue;
        }
        const outcome = await readShard(read, state, PAGES_PER_RUN);
        if (outcome === 'drained') {
          drained.add(shard.shardId);
          states.delete(shard.shardId);
          drainedOne = true;
        }
        if (outcome === 'more') more = true;
      }
      if (!drainedOne) break;
    }
    return more;
  };

  /** Shards trimmed off the stream (or of a stream replaced) are forgotten: memory follows the stream's 24 h. */
  const forgetUnlisted = (shards: readonly ShardInLineage[]): void => {
    const listed = new Set(shards.map((shard) => shard.shardId));
    for (const id of states.keys()) if (!listed.has(id)) states.delete(id);
    for (const id of drained) if (!listed.has(id)) drained.delete(id);
  };

  const loop = async (): Promise<void> => {
    let failures = 0;
    while (!abortSignal.aborted) {
      let pauseMs = options.intervalMs;
      try {
        const more = await runOnce();
        if (failures > 0) log(`lorebook: table stream: reading again after ${failures} failed run(s)`);
        failures = 0;
        if (more) pauseMs = 0;
      } catch (error) {
        if (abortSignal.aborted) break;
        failures += 1;
        pauseMs = Math.min(options.intervalMs * 2 ** Math.min(failures, 20), maxBackoffMs);
        log(`lorebook: table stream: ${describeFailure(error)}; retrying in ${pauseMs} ms`);
      }
      await pause(pauseMs, abortSignal);
    }
  };

  const running = loop();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof ConsumerFailed) return error.message;
  return `reading failed (${(error as Error).name ?? 'Error'}: ${(error as Error).message ?? String(error)})`;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}
