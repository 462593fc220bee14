// Which of a stream's shards may be read now. A shard's records follow its parent's, so a child is
// read only once its parent is read to its end (closed and drained); a shard whose parent is no
// longer listed (trimmed after 24 h) starts a lineage of its own. Oldest first, by the first
// sequence number each holds.
import type { Shard } from '@aws-sdk/client-dynamodb-streams';
import { compareSequence } from './sequence-number.ts';

export interface ShardInLineage {
  shardId: string;
  parentShardId?: string;
  startingSequenceNumber?: string;
}

export function shardsInLineage(shards: readonly Shard[]): ShardInLineage[] {
  return shards.flatMap((shard) =>
    shard.ShardId === undefined
      ? []
      : [
          {
            shardId: shard.ShardId,
            ...(shard.ParentShardId === undefined ? {} : { parentShardId: shard.ParentShardId }),
            ...(shard.SequenceNumberRange?.StartingSequenceNumber === undefined
              ? {}
              : { startingSequenceNumber: shard.SequenceNumberRange.StartingSequenceNumber }),
          },
        ],
  );
}

/** The shards not yet drained whose parent is drained or gone, oldest first. */
export function readableShards(shards: readonly ShardInLineage[], drained: ReadonlySet<string>): ShardInLineage[] {
  const listed = new Set(shards.map((shard) => shard.shardId));
  return shards
    .filter((shard) => !drained.has(shard.shardId))
    .filter((shard) => shard.parentShardId === undefined || !listed.has(shard.parentShardId) || drained.has(shard.parentShardId))
    .sort((a, b) => compareSequence(a.startingSequenceNumber, b.startingSequenceNumber));
}
