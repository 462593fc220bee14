// Reads one shard forward from where its consumers finished, a page at a time: each page is one
// batch for the consumers, in the shard's order, and the checkpoint moves only after they finished
// it. An iterator that expired (15 min) is fetched again from the last finished record; a position
// trimmed away (older than 24 h) restarts at the oldest record still held, since nothing older
// can be read any more.
import {
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { streamCheckpointPrefix } from '../keys.ts';
import { type CheckpointPlace, moveCheckpoint } from './checkpoint-items.ts';
import { lambdaRecord } from './lambda-record.ts';

/** What this process knows of one shard. */
export interface ShardState {
  shardId: string;
  /** The last record finished: delivered, or one of the pollers' own checkpoint writes. */
  finished?: string;
  /** Where the next page starts; fetched again after `finished` when absent or expired. */
  iterator?: string;
}

export interface ShardReading {
  streams: DynamoDBStreamsClient;
  place: CheckpointPlace;
  batchSize: number;
  onRecords(records: DynamoDBRecord[]): Promise<void>;
  log(line: string): void;
  now(): number;
  abortSignal: AbortSignal;
}

/** The shard's records are caught up with, more are waiting past this run's pages, or the shard is closed and read. */
export type ShardOutcome = 'caught-up' | 'more' | 'drained';

/** A consumer threw: the batch was not finished and will be delivered again. */
export class ConsumerFailed extends Error {
  readonly shardId: string;
  readonly records: number;
  constructor(shardId: string, records: number, cause: unknown) {
    super(`a batch of ${records} record(s) from ${shardId} failed in its consumer: ${(cause as Error).message ?? String(cause)}`, {
      cause,
    });
    this.name = 'ConsumerFailed';
    this.shardId = shardId;
    this.records = records;
  }
}

/** The pollers' own checkpoint writes are on the stream too; no consumer is told of them. */
function isCheckpointRecord(record: DynamoDBRecord): boolean {
  return record.dynamodb?.Keys?.PK?.S?.startsWith(streamCheckpointPrefix) === true;
}

export async function readShard(reading: ShardReading, state: ShardState, pages: number): Promise<ShardOutcome> {
  const { streams, place, abortSignal } = reading;
  for (let page = 0; page < pages; page += 1) {
    state.iterator ??= await iteratorFrom(reading, state);
    let answer: GetRecordsCommandOutput;
    try {
      answer = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: reading.batchSize }), { abortSignal });
    } catch (error) {
      if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)) throw error;
      state.iterator = undefined;
      continue;
    }
    const records: SdkRecord[] = answer.Records ?? [];
    const batch = records.map((record) => lambdaRecord(record, place.streamArn)).filter((record) => !isCheckpointRecord(record));
    if (batch.length > 0) {
      try {
        await reading.onRecords(batch);
      } catch (error) {
        // The iterator still points at this page: the next run reads it again.
        throw new ConsumerFailed(state.shardId, batch.length, error);
      }
    }
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last !== undefined) state.finished = last;
    state.iterator = answer.NextShardIterator;
    if (state.iterator === undefined) {
      await moveCheckpoint(place, state.shardId, { ...finishedAt(state), drained: true }, at(reading));
      return 'drained';
    }
    // Only a delivered batch moves the checkpoint: moving it past the pollers' own writes alone
    // would write again, and that write is a record of its own.
    if (batch.length > 0) await moveCheckpoint(place, state.shardId, { ...finishedAt(state), drained: false }, at(reading));
    if (records.length === 0) return 'caught-up';
  }
  return 'more';
}

const finishedAt = (state: ShardState): { sequenceNumber?: string } =>
  state.finished === undefined ? {} : { sequenceNumber: state.finished };

const at = (reading: ShardReading) => ({ nowMs: reading.now(), abortSignal: reading.abortSignal });

/** After the last finished record, or from the oldest record held when none is (or it was trimmed). */
async function iteratorFrom(reading: ShardReading, state: ShardState): Promise<string> {
  const { streams, place, abortSignal } = reading;
  const shard = { StreamArn: place.streamArn, ShardId: state.shardId };
  if (state.finished !== undefined) {
    try {
      const answer = await streams.send(
        new GetShardIteratorCommand({ ...shard, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.finished }),
        { abortSignal },
      );
      return present(answer.ShardIterator, state);
    } catch (error) {
      if (!(error instanceof TrimmedDataAccessException)) throw error;
      reading.log(
        `lorebook: table stream: records of ${state.shardId} after ${state.finished} were trimmed before they were read; reading from the oldest one held`,
      );
    }
  }
  const answer = await streams.send(new GetShardIteratorCommand({ ...shard, ShardIteratorType: 'TRIM_HORIZON' }), { abortSignal });
  return present(answer.ShardIterator, state);
}

function present(iterator: string | undefined, state: ShardState): string {
  if (iterator === undefined) throw new Error(`the stream answered no iterator for ${state.shardId}`);
  return iterator;
}
