// The CPU priority (niceness) of `npm start`'s background threads, lowered so that on a busy
// machine the thread serving requests is scheduled first: with the snapshot job, the search index
// and DynamoDB Local all working on two cores, a request thread at the same priority waited up to
// a scheduler slice for its turn (BENCHMARKS.md §12). On Linux niceness belongs to a thread: this
// changes only the calling thread and the threads it starts after. Elsewhere (macOS: the whole
// process) it changes nothing.
import { setPriority } from 'node:os';
import { stderrLog } from '../log-sink.ts';

/** The snapshot job: once a minute, nobody waits for it. */
export const SNAPSHOT_JOB_NICENESS = 19;
/** The search index: a search waits for it, so it yields to the request thread but not to everything. */
export const SEARCH_INDEX_NICENESS = 10;

export function lowerThisThreadsPriority(niceness: number): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(niceness);
  } catch (error) {
    // Raising niceness needs no privilege; a sandbox that refuses it leaves the default, slower for requests but never wrong.
    stderrLog(`lorebook: could not lower a background thread's priority (${(error as Error).message})`);
  }
}
