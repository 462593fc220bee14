// One run of the search snapshot job in a worker thread of its own (snapshot-job-thread.ts), for
// `npm start`'s schedule. A thread that dies (killed, out of memory) fails only that run: the
// pointer has not moved (design.md#search), and the next interval starts again from it.
import type { SnapshotJobReport } from '../app/search/search-snapshot-job.ts';
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
