// Shard lineage: a child shard waits for its parent to be read to its end, a shard whose parent was
// trimmed off the stream starts its own lineage, and readable shards come oldest first.
import { describe, expect, it } from 'vitest';
import { readableShards, shardsInLineage } from '../../../../src/store/table-stream/shard-lineage.ts';

const shards = shardsInLineage([
  { ShardId: 'child-b', ParentShardId: 'parent', SequenceNumberRange: { StartingSequenceNumber: '000000000000000000300' } },
  {
    ShardId: 'parent',
    ParentShardId: 'trimmed',
    SequenceNumberRange: { StartingSequenceNumber: '000000000000000000100', EndingSequenceNumber: '000000000000000000199' },
  },
  { ShardId: 'child-a', ParentShardId: 'parent', SequenceNumberRange: { StartingSequenceNumber: '000000000000000000200' } },
  { ShardId: 'grandchild', ParentShardId: 'child-a', SequenceNumberRange: { StartingSequenceNumber: '000000000000000000400' } },
  { ShardId: 'other-root', SequenceNumberRange: { StartingSequenceNumber: '000000000000000000050' } },
]);
const ids = (drained: string[]) => readableShards(shards, new Set(drained)).map((shard) => shard.shardId);

describe('which shards are read, and in what order', () => {
  it('only roots are readable at first, oldest first; a parent no longer listed counts as gone', () => {
    expect(ids([])).toEqual(['other-root', 'parent']);
  });

  it('a drained parent makes its children readable, oldest first, and is not read again', () => {
    expect(ids(['parent'])).toEqual(['other-root', 'child-a', 'child-b']);
  });

  it('a grandchild waits for its own parent, not just the root', () => {
    expect(ids(['parent', 'other-root'])).toEqual(['child-a', 'child-b']);
    expect(ids(['parent', 'other-root', 'child-a'])).toEqual(['child-b', 'grandchild']);
  });

  it('sequence numbers of different lengths compare as numbers', () => {
    const mixed = shardsInLineage([
      { ShardId: 'long', SequenceNumberRange: { StartingSequenceNumber: '1000000000000000000000' } },
      { ShardId: 'short', SequenceNumberRange: { StartingSequenceNumber: '900000000000000000000' } },
    ]);
    expect(readableShards(mixed, new Set()).map((shard) => shard.shardId)).toEqual(['short', 'long']);
  });
});
