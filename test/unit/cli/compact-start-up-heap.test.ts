import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compactStartUpHeap } from '../../../src/cli/compact-start-up-heap.ts';

const MB = 1024 * 1024;

/** Objects kept long enough to reach the old generation, as start-up's imports and setup are, then dropped. */
function leaveGarbageInOldSpace(): void {
  const kept: object[][] = [];
  for (let round = 0; round < 40; round += 1) kept.push(Array.from({ length: 20_000 }, (_, n) => ({ n, text: `item ${round} ${n}` })));
  // Churn so that the kept objects are promoted, then drop them.
  for (let churn = 0; churn < 200; churn += 1) kept.at(churn % kept.length)?.slice();
  kept.length = 0;
}

describe('compactStartUpHeap', () => {
  it('gives back the heap that garbage from before the port opens still holds', () => {
    leaveGarbageInOldSpace();
    const compaction = compactStartUpHeap();
    expect(compaction).toBeDefined();
    if (compaction === undefined) return;
    expect(compaction.beforeBytes - compaction.afterBytes).toBeGreaterThan(20 * MB);
    expect(compaction.afterBytes).toBe(getHeapStatistics().total_heap_size);
  });

  it('leaves gc exposed to no context created after it', () => {
    compactStartUpHeap();
    expect(runInNewContext('typeof globalThis.gc')).toBe('undefined');
  });
});
