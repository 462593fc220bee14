// A compacting collection on demand, for a heap that work left about twice its live size: the
// serving thread's after start-up (start.ts), an offload worker's after a heavy task
// (offload-worker.ts). V8 keeps a heap it has grown until its memory reducer runs, and then
// compacts it in one collection of its own choosing: on the serving thread, while requests wait.
// The `gc` extension is exposed to one new context, once a thread, then hidden again (the flag is
// the process's: a context another thread made in that instant would see `gc` too, and could only
// collect with it).
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

/** This thread's `gc`, asked for once (a context per thread); undefined where the runtime offers none. */
let collect: Collect | undefined | null = null;

function collector(): Collect | undefined {
  if (collect !== null) return collect;
  // The flag exposes `gc` to contexts created while it is set: this one only, then it is unset.
  setFlagsFromString('--expose-gc');
  const exposed: unknown = runInNewContext('globalThis.gc');
  setFlagsFromString('--no-expose-gc');
  collect = typeof exposed === 'function' ? (exposed as Collect) : undefined;
  return collect;
}

/** This thread's heap, committed: what its thread holds of the process's memory for V8, in bytes. */
export const heapBytes = (): number => getHeapStatistics().total_heap_size;

/** Undefined where the runtime offers no `gc` to a new context (nothing is collected then). */
export function compactHeap(): HeapCompaction | undefined {
  const run = collector();
  if (run === undefined) return undefined;
  const beforeBytes = heapBytes();
  const started = performance.now();
  run({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { beforeBytes, afterBytes: heapBytes(), ms: performance.now() - started };
}
