// The capability re-scan job under `npm start`, as the sweeper Lambda runs it in the cloud: a
// batch at start and one every interval (a finished walk costs one GetItem). While the walk has
// more to read the next batch follows at once, so a local table catches up in one go; batches
// never overlap in this process. Another process running batches at the same time (the CLI, a
// second `npm start`) is harmless: each re-scan is twice-safe, and the position only moves from
// where it was read.
import type { AppContext } from '../../context/app-context.ts';
import { type IntervalJob, startIntervalJob } from '../../context/interval-job.ts';
import { describeBatch, type RescanBatchOptions, rescanBatch } from './batch.ts';

export interface RescanSchedule {
  intervalMs: number;
  log(line: string): void;
  /** The batch's options (a test's version bump); the running scanner's version by default. */
  batch?: RescanBatchOptions;
}

export type CapabilityRescan = IntervalJob;

export function startCapabilityRescan(ctx: AppContext, schedule: RescanSchedule): CapabilityRescan {
  return startIntervalJob(schedule.intervalMs, async (stopped) => {
    try {
      for (;;) {
        const report = await rescanBatch(ctx, schedule.batch);
        if (report.results.length > 0 || report.recorded.length > 0 || (report.next.at === 'end' && report.from.at !== 'end')) {
          schedule.log(`lorebook: capability re-scan to ${report.scanner_version}: ${describeBatch(report)}`);
        }
        if (report.next.at === 'end' || stopped()) break;
      }
    } catch (error) {
      schedule.log(`lorebook: capability re-scan failed (${(error as Error).message ?? String(error)}); the next run retries`);
    }
  });
}
