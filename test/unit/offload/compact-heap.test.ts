import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compactHeap } from '../../../src/offload/compact-heap.ts';

const MB = 1024 * 1024;

/** Objects kept long enough to reach the old generation, as start-up's imports and setup are, then dropped. */
function leaveGarbageInOldSpace(): void {
  const kept: object[][] = [];
  for (let round = 0; round < 40; round += 1) kept.push(Array.from({ length: 20_000 }, (_, n) => ({ n, text: `item ${round} ${n}` })));
  // Churn so that the kept objects are promoted, then drop them.
  for (let churn = 0; churn < 200; churn += 1) kept.at(churn % kept.length)?.slice();
  kept.length = 0;
}

describe('compactHeap', () => {
  it('gives back the heap that garbage in the old generation still holds', () => {
    leaveGarbageInOldSpace();
    const compaction = compactHeap();
    expect(compaction).toBeDefined();
    if (compaction === undefined) return;
    expect(compaction.beforeBytes - compaction.afterBytes).toBeGreaterThan(20 * MB);
    // The committed size after the collection, as read now: V8's concurrent sweeper may still give back
    // a page or two once the collection has returned (256 KB on a busy CI machine).
    expect(Math.abs(compaction.afterBytes - getHeapStatistics().total_heap_size)).toBeLessThan(MB);
  });

  it('leaves gc exposed to no context created after it', () => {
    compactHeap();
    expect(runInNewContext('typeof globalThis.gc')).toBe('undefined');
  });
});
