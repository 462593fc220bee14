// A thread's heap compacted once it is idle (src/offload/compact-when-idle.ts), on a heap whose
// size the test sets: only after `idleMs` with no question, only when it grew by `growthBytes`
// since the last compaction, and never again where the runtime cannot compact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactWhenIdle } from '../../../src/offload/compact-when-idle.ts';

const MB = 1024 * 1024;

function heapOf(startMb: number) {
  const heap = { bytes: startMb * MB, compactions: 0, compactsTo: (20 * MB) as number | undefined };
  const rules = {
    idleMs: 2000,
    growthBytes: 16 * MB,
    heapBytes: () => heap.bytes,
    compact: () => {
      heap.compactions += 1;
      if (heap.compactsTo !== undefined) heap.bytes = heap.compactsTo;
      return heap.compactsTo;
    },
  };
  return { heap, compaction: compactWhenIdle(rules) };
}

describe('a heap compacted once its thread is idle', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('compacts a heap grown by the growth once no question came for the idle time, not before', () => {
    const { heap, compaction } = heapOf(20);
    heap.bytes = 40 * MB;
    compaction.busy();
    vi.advanceTimersByTime(1999);
    expect(heap.compactions).toBe(0);
    vi.advanceTimersByTime(1);
    expect(heap.compactions).toBe(1);
  });

  it('each question starts the idle time again: a thread kept busy is never held up by a compaction', () => {
    const { heap, compaction } = heapOf(20);
    heap.bytes = 60 * MB;
    for (let question = 0; question < 10; question += 1) {
      compaction.busy();
      vi.advanceTimersByTime(1500);
    }
    expect(heap.compactions).toBe(0);
    vi.advanceTimersByTime(500);
    expect(heap.compactions).toBe(1);
  });

  it('leaves a heap grown by less than the growth since its last compaction', () => {
    const { heap, compaction } = heapOf(20);
    heap.bytes = 35 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    expect(heap.compactions).toBe(0);
    heap.bytes = 36 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    expect(heap.compactions).toBe(1);
  });

  it('measures the growth from the size the last compaction left', () => {
    const { heap, compaction } = heapOf(20);
    heap.compactsTo = 30 * MB;
    heap.bytes = 50 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    // Compacted to 30 MB; 40 MB is 10 MB past that, under the growth (and 20 past the start).
    heap.bytes = 40 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    expect(heap.compactions).toBe(1);
  });

  it('never tries again where the runtime cannot compact', () => {
    const { heap, compaction } = heapOf(20);
    heap.compactsTo = undefined;
    heap.bytes = 40 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    heap.bytes = 400 * MB;
    compaction.busy();
    vi.advanceTimersByTime(2000);
    expect(heap.compactions).toBe(1);
  });
});
