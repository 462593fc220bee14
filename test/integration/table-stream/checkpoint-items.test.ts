// A shard's checkpoint moves only forward: a later record moves it, an earlier one (a slower
// poller sharing the namespace, a write from before a crash) does not, and a drained shard stays
// drained.
import { describe, expect, it } from 'vitest';
import { type CheckpointPlace, moveCheckpoint, readCheckpoint } from '../../../src/store/table-stream/checkpoint-items.ts';
import { useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('stream checkpoint items', { stream: true });
const place = (): CheckpointPlace => ({ client: table.client, tableName: table.tableName, namespace: 'n', streamArn: 'arn:stream' });
const signal = new AbortController().signal;
const at = { nowMs: Date.UTC(2026, 11, 1), abortSignal: signal };
const seq = (n: number): string => String(n).padStart(21, '0');

describe('the stream checkpoint', () => {
  it('starts absent, then moves to a later record and never back to an earlier one', async () => {
    expect(await readCheckpoint(place(), 'shard-1', signal)).toEqual({ drained: false });
    expect(await moveCheckpoint(place(), 'shard-1', { sequenceNumber: seq(20), drained: false }, at)).toBe(true);
    expect(await moveCheckpoint(place(), 'shard-1', { sequenceNumber: seq(9), drained: false }, at)).toBe(false);
    expect(await moveCheckpoint(place(), 'shard-1', { sequenceNumber: seq(20), drained: false }, at)).toBe(false);
    expect(await readCheckpoint(place(), 'shard-1', signal)).toEqual({ sequenceNumber: seq(20), drained: false });
    // Compared as numbers: a longer sequence number is a later one, whatever its digits.
    expect(await moveCheckpoint(place(), 'shard-1', { sequenceNumber: `1${seq(0)}`, drained: false }, at)).toBe(true);
    expect(await readCheckpoint(place(), 'shard-1', signal)).toEqual({ sequenceNumber: `1${seq(0)}`, drained: false });
  });

  it('a drained shard stays drained', async () => {
    expect(await moveCheckpoint(place(), 'shard-2', { sequenceNumber: seq(5), drained: true }, at)).toBe(true);
    expect(await moveCheckpoint(place(), 'shard-2', { sequenceNumber: seq(50), drained: false }, at)).toBe(false);
    expect(await readCheckpoint(place(), 'shard-2', signal)).toEqual({ sequenceNumber: seq(5), drained: true });
  });

  it('each shard and namespace has a checkpoint of its own', async () => {
    expect(await moveCheckpoint({ ...place(), namespace: 'other' }, 'shard-1', { sequenceNumber: seq(1), drained: false }, at)).toBe(true);
    expect(await readCheckpoint({ ...place(), namespace: 'other' }, 'shard-1', signal)).toEqual({ sequenceNumber: seq(1), drained: false });
    expect(await readCheckpoint(place(), 'shard-3', signal)).toEqual({ drained: false });
  });
});
