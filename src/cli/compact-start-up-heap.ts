// Start-up leaves the serving thread's heap about twice its live size (88 MB committed for 42 MB
// live on an empty table). Once the process goes quiet, ~30 s after the server is ready, V8's memory
// reducer compacts it in one collection that holds the event loop: 38 ms on a quiet machine, 76–87
// ms beside an index loading at 100k stories (BENCHMARKS.md §12). Compacting here, before the port
// opens, pays that once while nobody waits; the reducer's later collections find little to move.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc` extension; `last-resort` collects as under memory pressure: twice, compacting. */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface HeapCompaction {
  /** The heap's committed size before and after, bytes. */
  beforeBytes: number;
  afterBytes: number;
  ms: number;
}

/** Undefined where the runtime offers no `gc` to a new context (nothing is collected then). */
export function compactStartUpHeap(): HeapCompaction | undefined {
  // The flag exposes `gc` to contexts created while it is set: this one only, then it is unset.
  setFlagsFromString('--expose-gc');
  const collect: unknown = runInNewContext('globalThis.gc');
  setFlagsFromString('--no-expose-gc');
  if (typeof collect !== 'function') return undefined;
  const beforeBytes = getHeapStatistics().total_heap_size;
  const started = performance.now();
  (collect as Collect)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { beforeBytes, afterBytes: getHeapStatistics().total_heap_size, ms: performance.now() - started };
}
