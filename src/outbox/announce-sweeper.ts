// The announce sweeper (design §4): re-drives what the publish path's own attempt did not
// finish — stories never tried (that attempt was lost), released after a failure once their
// backoff has passed, and claims gone stale because their worker died. Run once from the
// command line (`npm run sweep`), on a timer inside `npm start`, or by a scheduled Lambda.
// It stops early on a refused app password (retrying every story would be a retry storm) and
// on a rate limit (the next story would only be refused too; its retry-after is recorded).
import type { AppContext } from '../app/app-context.ts';
import { dueAnnouncements } from '../store/announce-queue.ts';
import { announceStory, type AnnounceOutcome, type AnnounceResult, type Announcer } from './announce-story.ts';

export const DEFAULT_SWEEP_LIMIT = 25;
export const MAX_SWEEP_LIMIT = 100;

export interface SweepOptions {
  /** Queue entries looked at in this run (1–100). */
  limit?: number;
  /** Called after each story, for progress output. */
  onStory?: (result: AnnounceResult, index: number, of: number) => void;
}

export interface SweepReport {
  /** Queue entries that were due. */
  due: number;
  outcomes: Partial<Record<AnnounceOutcome, number>>;
  results: AnnounceResult[];
  /** Why the run stopped before the end of the due entries, if it did. */
  stopped?: string;
}

export async function sweepAnnouncements(ctx: AppContext, announcer: Announcer, options: SweepOptions = {}): Promise<SweepReport> {
  const limit = options.limit ?? DEFAULT_SWEEP_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SWEEP_LIMIT) throw new RangeError(`sweep limit must be a whole number from 1 to ${MAX_SWEEP_LIMIT}`);
  const due = await dueAnnouncements(ctx.store, new Date(ctx.store.now()).toISOString(), limit);
  const report: SweepReport = { due: due.length, outcomes: {}, results: [] };
  // One at a time: a social network's rate limit is per account, and one stuck story must not
  // hold up the rest for longer than its own bounded attempt.
  for (const [index, entry] of due.entries()) {
    const result = await announceStory(ctx, announcer, entry.slug);
    report.results.push(result);
    report.outcomes[result.outcome] = (report.outcomes[result.outcome] ?? 0) + 1;
    options.onStory?.(result, index, due.length);
    const kind = result.failure?.kind;
    if (kind === 'credentials' || kind === 'rate_limited') {
      report.stopped = kind === 'credentials' ? 'the account refused the app password' : 'rate limited';
      break;
    }
  }
  return report;
}

export interface SweepSchedule {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs a sweep every `intervalMs`, never two at once; failures are logged and the next run goes on. */
export function scheduleAnnounceSweeps(ctx: AppContext, announcer: Announcer, intervalMs: number): SweepSchedule {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = (): void => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        const report = await sweepAnnouncements(ctx, announcer);
        if (report.due > 0) announcer.log(`announce sweep: ${summarize(report)}`);
      } catch (error) {
        announcer.log(`announce sweep failed: ${(error as Error).message ?? String(error)}`);
      }
    });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

export function summarize(report: SweepReport): string {
  const counts = Object.entries(report.outcomes).map(([outcome, count]) => `${count} ${outcome}`);
  return `${report.due} due${counts.length > 0 ? `: ${counts.join(', ')}` : ''}${report.stopped === undefined ? '' : ` (stopped: ${report.stopped})`}`;
}
