// One run of the search snapshot job in a worker thread of its own (snapshot-job-thread.ts), for
// `npm start`'s schedule. A thread that dies (killed, out of memory) fails only that run: the
// pointer has not moved (design.md#search), and the next interval starts again from it.
import type { AppContext } from '../app/context/app-context.ts';
import { type SnapshotJobReport, snapshotJobEndsAtTheLog } from '../app/search/search-snapshot-job.ts';
import { runThread, type ThreadRun } from '../app/search/search-thread.ts';
import type { Config } from '../config.ts';

const JOB_THREAD = new URL('./snapshot-job-thread.ts', import.meta.url);

export function runSnapshotJobInThread(
  config: Config,
  endpoint: string | undefined,
  run: Pick<ThreadRun, 'onStart'> = {},
): Promise<SnapshotJobReport | null> {
  return runThread<SnapshotJobReport | null>(JOB_THREAD, { config, endpoint }, [], run);
}

/**
 * `npm start`'s run each interval: a thread only when the run would load the index. Most runs only
 * count the log and end, and a thread's start alone costs its isolate and its modules' import
 * (~0.3 s of CPU, ~30 MiB until it ends) once a minute; the count is a pointer read and a few
 * hundred small log entries, asked here.
 */
export async function runSnapshotJobWhereNeeded(
  ctx: AppContext,
  config: Config,
  endpoint: string | undefined,
  run: Pick<ThreadRun, 'onStart'> = {},
): Promise<SnapshotJobReport | null> {
  return (await snapshotJobEndsAtTheLog(ctx)) ?? runSnapshotJobInThread(config, endpoint, run);
}
