// One run of the search snapshot job in a process of its own (snapshot-job-process.ts), for
// `npm start`'s schedule. A process that dies (killed, out of memory) fails only that run: the
// pointer has not moved (design.md#search), and the next interval starts again from it.
import type { AppContext } from '../app/context/app-context.ts';
import { type SnapshotJobReport, snapshotJobEndsAtTheLog } from '../app/search/search-snapshot-job.ts';
import type { Config } from '../config.ts';
import { type JobProcessRun, runJobProcess } from './job-process.ts';

const JOB_PROCESS = new URL('./snapshot-job-process.ts', import.meta.url);

export function runSnapshotJobInProcess(
  config: Config,
  endpoint: string | undefined,
  run: JobProcessRun = {},
): Promise<SnapshotJobReport | null> {
  return runJobProcess<SnapshotJobReport | null>(JOB_PROCESS, { config, endpoint }, run);
}

/**
 * `npm start`'s run each interval: a process only when the run would load the index. Most runs
 * only count the log and end, and a process's start alone costs its runtime and its modules' import
 * (~0.4 s of CPU) once a minute; the count is a pointer read and a few hundred small log entries,
 * asked here.
 */
export async function runSnapshotJobWhereNeeded(
  ctx: AppContext,
  config: Config,
  endpoint: string | undefined,
  run: JobProcessRun = {},
): Promise<SnapshotJobReport | null> {
  return (await snapshotJobEndsAtTheLog(ctx)) ?? runSnapshotJobInProcess(config, endpoint, run);
}
