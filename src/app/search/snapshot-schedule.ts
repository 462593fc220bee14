// The search snapshot job under `npm start`, as the sweeper Lambda runs it in the cloud: one run
// at start (which builds the first snapshot from the feed index on a new store) and one every
// interval; runs never overlap in this process. `run` is one run of the job: `npm start` runs
// each that loads the index in a process of its own (src/cli/snapshot-job-in-process.ts), off the
// event loop that serves requests. Another process running the job at the same time (a second
// `npm start` on the same store) is harmless: the pointer moves once, forward only.
import { type IntervalJob, startIntervalJob } from '../context/interval-job.ts';
import type { SnapshotJobReport } from './search-snapshot-job.ts';

export interface SnapshotSchedule {
  intervalMs: number;
  log(line: string): void;
}

export type SearchSnapshotting = IntervalJob;

/** One line for the log. */
export function describeSnapshotJob(report: SnapshotJobReport): string {
  if (report.stories === undefined)
    return (report.left ?? 0) === 0
      ? 'nothing logged since the last snapshot: none loaded, none written'
      : `${report.left} log entries since the last snapshot, left to the instances' replay: none loaded, none written`;
  const wrote =
    report.written === undefined
      ? 'nothing changed, no snapshot written'
      : `wrote ${report.written}${report.moved ? '' : ' (another job moved the pointer first)'}`;
  return `${report.stories} stories (from the ${report.from}), ${report.logEntries} log entries applied, ${report.changed} changed; ${wrote}`;
}

export function startSearchSnapshots(run: () => Promise<SnapshotJobReport | null>, schedule: SnapshotSchedule): SearchSnapshotting {
  return startIntervalJob(schedule.intervalMs, async () => {
    try {
      const report = await run();
      if (report?.written !== undefined) schedule.log(`lorebook: search snapshot: ${describeSnapshotJob(report)}`);
    } catch (error) {
      schedule.log(`lorebook: search snapshot failed (${(error as Error).message ?? String(error)}); the next run retries`);
    }
  });
}
