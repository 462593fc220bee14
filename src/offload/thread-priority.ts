// The CPU priority (niceness) of `npm start`'s background threads (the snapshot job's process, a
// snapshot's decode, libuv's pool where images are re-encoded, V8's platform threads, the offload
// workers where heavy jobs run), lowered so that on a busy machine the thread serving requests is
// scheduled first: on two cores shared with DynamoDB Local, a request thread at the same priority
// waited for its turn (BENCHMARKS.md §11, §12). On Linux niceness belongs to a thread (and the
// threads it starts after inherit it), so each call changes only the threads it names; elsewhere
// (macOS: the whole process) nothing changes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/** The snapshot job: once a minute, nobody waits for it. */
export const SNAPSHOT_JOB_NICENESS = 19;
/**
 * A snapshot's decode for an instance's index (snapshot-decode-thread.ts). The index's own thread
 * keeps the default: it ranks for requests, and a publish's `similar` waits for it.
 */
export const SNAPSHOT_DECODE_NICENESS = 10;

/**
 * libuv's thread pool: image re-encodes (sharp) hold one of its threads for a second or more each;
 * the rest of its work (file reads, zlib, DNS) is short.
 */
export const THREAD_POOL_NICENESS = 10;

/**
 * The offload workers but the first (offload.ts): heavy jobs (a scan, parse or render of a large
 * text, seconds of CPU) run there, and ordinary calls' jobs on the first whenever it is free.
 */
export const HEAVY_LANE_NICENESS = 10;

export function lowerThisThreadsPriority(niceness: number): void {
  // Only ever lowered: a thread already at that niceness or past it is left as it is.
  if (process.platform !== 'linux' || getPriority(0) >= niceness) return;
  // Thread 0: the calling one.
  setNiceness(0, niceness);
}

/**
 * Lowers every thread of this process, the main one too, and so every thread it starts after: for a
 * process that only runs background work (the snapshot job's, snapshot-job-process.ts).
 */
export function lowerThisProcessPriority(niceness: number): void {
  if (process.platform !== 'linux' || !existsSync('/proc/self/task')) return;
  lowerThreads(() => true, niceness);
}

/**
 * Lowers the priority of libuv's pool threads, which a process starts all at once at its first
 * asynchronous file, DNS or zlib call (one is made here, in case none has been). Beside 6 heavy
 * image uploads, the victim's get_story p99 went from 2.9–3.3× of its calls alone to 1.0–2.2×, and
 * its page p99 from 2.8–3.0× to 1.5–1.8× (BENCHMARKS.md §11). Answers how many threads it lowered.
 */
export async function lowerThreadPoolPriority(niceness = THREAD_POOL_NICENESS): Promise<number> {
  if (process.platform !== 'linux') return 0;
  await access('/proc/self/task');
  return lowerThreadsNamed(POOL_THREAD_NAME, niceness);
}

/**
 * V8's platform threads: they collect garbage beside every thread of the process (the serving
 * thread's heap and each worker's) and compile in the background. Under every attack at once they
 * ran ~340 ms a second, four threads at the serving thread's priority. Lowered, in six runs each
 * beside one without: the serving thread waited 137–194 ms a second for a core instead of 177–270,
 * and the victim's worst p99 was 1.19–1.71× of its calls alone instead of 1.46–2.13× (BENCHMARKS.md §11).
 */
export const PLATFORM_THREAD_NICENESS = 10;

/**
 * Lowers the priority of V8's platform threads: every thread Node names `node` but the main one.
 * Worker threads carry that name too, and a thread starts at the niceness of the thread that starts
 * it, so this must run before the first worker starts; the workers then keep the default (an
 * offload worker of a heavy lane lowers itself, offload.ts). Answers how many threads it lowered.
 */
export function lowerPlatformThreadsPriority(niceness = PLATFORM_THREAD_NICENESS): number {
  if (process.platform !== 'linux' || !existsSync('/proc/self/task')) return 0;
  return lowerThreadsNamed(PLATFORM_THREAD_NAME, niceness);
}

/** Lowers every thread of this process with that name but the main thread (which serves requests); answers how many. */
function lowerThreadsNamed(name: string, niceness: number): number {
  return lowerThreads((task) => Number(task) !== process.pid && threadName(task) === name, niceness);
}

/** Lowers every thread of this process (`/proc/self/task`) that `which` picks; answers how many. */
function lowerThreads(which: (task: string) => boolean, niceness: number): number {
  let lowered = 0;
  for (const task of readdirSync('/proc/self/task')) if (which(task) && setNiceness(Number(task), niceness)) lowered += 1;
  return lowered;
}

/** The name Node gives the threads it does not name otherwise: its main thread, V8's platform threads, worker threads. */
const PLATFORM_THREAD_NAME = 'node';

/** The name libuv gives its pool threads. */
const POOL_THREAD_NAME = 'libuv-worker';

/** Sets one thread's niceness; false (with a warning) when the OS refused. */
function setNiceness(thread: number, niceness: number): boolean {
  try {
    setPriority(thread, niceness);
    return true;
  } catch (error) {
    // Raising niceness needs no privilege; a sandbox that refuses it leaves the default, slower for requests but never wrong.
    process.emitWarning(`lorebook: could not lower a background thread's priority (${(error as Error).message})`);
    return false;
  }
}

/** A thread's name, or '' for one that ended since the listing. */
function threadName(task: string): string {
  try {
    return readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
