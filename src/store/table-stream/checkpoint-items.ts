// Where a table-stream poller has got to in one shard (docs/design.md#data, "stream checkpoint"): the
// last record its consumers finished, or that the shard is closed and read to its end. Moved only
// forward (a conditional Put), so a slower poller sharing the namespace, or a late write from
// before a crash, never moves it back. A restarted poller resumes after it: a batch may be
// delivered again (its checkpoint was not written yet), never skipped.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Condition } from '../condition.ts';
import { streamCheckpointKey } from '../keys.ts';
import { replaceItem } from '../replace-by-key.ts';
import { TTL_ATTRIBUTE } from '../schema.ts';
import { paddedSequence } from './sequence-number.ts';

/** Stream records live 24 h; a checkpoint untouched for twice that points at nothing still held. */
const CHECKPOINT_TTL_SECONDS = 2 * 24 * 60 * 60;

export interface ShardCheckpoint {
  /** The last record finished (its SequenceNumber as the stream wrote it); absent: none yet. */
  sequenceNumber?: string;
  /** The shard is closed and every record in it was finished. */
  drained: boolean;
}

export interface CheckpointPlace {
  client: DynamoDBDocumentClient;
  tableName: string;
  namespace: string;
  streamArn: string;
}

export async function readCheckpoint(place: CheckpointPlace, shardId: string, abortSignal: AbortSignal): Promise<ShardCheckpoint> {
  const { Item } = await place.client.send(
    new GetCommand({
      TableName: place.tableName,
      Key: streamCheckpointKey(place.namespace, place.streamArn, shardId),
      ConsistentRead: true,
    }),
    { abortSignal },
  );
  const sequenceNumber = Item?.sequence_number;
  return {
    ...(typeof sequenceNumber === 'string' ? { sequenceNumber } : {}),
    drained: Item?.drained === true,
  };
}

/**
 * Stores `next` unless the stored checkpoint is already as far: a drained shard stays drained, a
 * position moves only to a later record. Answers whether this write moved it.
 */
export async function moveCheckpoint(
  place: CheckpointPlace,
  shardId: string,
  next: ShardCheckpoint,
  at: { nowMs: number; abortSignal: AbortSignal },
): Promise<boolean> {
  const item = {
    ...streamCheckpointKey(place.namespace, place.streamArn, shardId),
    stream_arn: place.streamArn,
    shard_id: shardId,
    ...(next.sequenceNumber === undefined ? {} : { sequence_number: next.sequenceNumber, position: paddedSequence(next.sequenceNumber) }),
    drained: next.drained,
    updated_at: new Date(at.nowMs).toISOString(),
    [TTL_ATTRIBUTE]: Math.floor(at.nowMs / 1000) + CHECKPOINT_TTL_SECONDS,
  };
  try {
    await place.client.send(new PutCommand({ TableName: place.tableName, ...replaceItem(item, forwardOnly(next)).Put }), {
      abortSignal: at.abortSignal,
    });
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

function forwardOnly(next: ShardCheckpoint): Condition {
  const notDrained = 'attribute_not_exists(PK) OR #drained = :false';
  if (next.drained || next.sequenceNumber === undefined) {
    return { expression: notDrained, names: { '#drained': 'drained' }, values: { ':false': false } };
  }
  return {
    expression: `attribute_not_exists(PK) OR (#drained = :false AND (attribute_not_exists(#position) OR #position < :position))`,
    names: { '#drained': 'drained', '#position': 'position' },
    values: { ':false': false, ':position': paddedSequence(next.sequenceNumber) },
  };
}
