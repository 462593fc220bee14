// The announce sweeper (docs/design.md#write-rules): re-drives what the publish path's own attempt did not
// finish — stories never tried (that attempt was lost), released after a failure once their
// backoff has passed, and claims gone stale because their worker died. Run once from the
// command line (`npm run sweep`), on a timer inside `npm start`, or by a scheduled Lambda.
// It stops early on a refused app password (retrying every story would be a retry storm) and
// on a rate limit (the next story would only be refused too; its retry-after is recorded).
import type { AppContext } from '../../app/context/app-context.ts';
import { dueAnnouncements, firstAnnouncementDue } from '../../store/story/announce/queue.ts';
import type { Announcer } from './announcer.ts';
import type { AnnounceOutcome, AnnounceResult } from './outcome.ts';
import { type SetAside, setAsideTooOldAnnouncements } from './set-aside.ts';
import { type SkippedAnnouncement, skippedAnnouncements, summarizeSkipped } from './skipped.ts';
import type { AnnounceSoon } from './soon.ts';
import { announceStory } from './story.ts';

export const DEFAULT_SWEEP_LIMIT = 25;
export const ANNOUNCING_OFF = 'announcing is off (LOREBOOK_ANNOUNCING; npm run settings)';
export const MAX_SWEEP_LIMIT = 100;

export interface SweepOptions {
  /** Queue entries looked at in this run (1–100). */
  limit?: number;
  /** Called after each story, for progress output. */
  onStory?: (result: AnnounceResult, index: number, of: number) => void;
  /** Judge due-ness at this time (ms) instead of the store's clock (`npm run sweep -- --now`). */
  now?: number;
}

export interface SweepReport {
  /** Queue entries that were due. */
  due: number;
  outcomes: Partial<Record<AnnounceOutcome, number>>;
  results: AnnounceResult[];
  /** Why the run stopped before the end of the due entries, if it did. */
  stopped?: string;
  /** Queue entries not due at the sweep's time (up to the limit), and why each waits. */
  skipped: SkippedAnnouncement[];
  /** Never-tried entries owed longer than the age limit, set aside in this run, not posted (design.md#announcing-resumes). */
  set_aside: SetAside[];
  /** The time due-ness was judged at (ISO). */
  at: string;
}

export async function sweepAnnouncements(ctx: AppContext, announcer: Announcer, options: SweepOptions = {}): Promise<SweepReport> {
  const limit = options.limit ?? DEFAULT_SWEEP_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SWEEP_LIMIT)
    throw new RangeError(`sweep limit must be a whole number from 1 to ${MAX_SWEEP_LIMIT}`);
  const at = options.now ?? ctx.store.now();
  await ctx.refreshSettings?.();
  if (!ctx.config.announcing) {
    // Nothing is claimed or posted while announcing is off (design.md#settings); the queue keeps the work.
    return { due: 0, outcomes: {}, results: [], stopped: ANNOUNCING_OFF, skipped: [], set_aside: [], at: new Date(at).toISOString() };
  }
  // Announcing (re)starts without a flood: what has waited too long is set aside first (design.md#announcing-resumes).
  const setAside = await setAsideTooOldAnnouncements(ctx, at);
  const due = await dueAnnouncements(ctx.store, new Date(at).toISOString(), limit);
  const report: SweepReport = {
    due: due.length,
    outcomes: {},
    results: [],
    skipped: [],
    set_aside: setAside,
    at: new Date(at).toISOString(),
  };
  // One at a time: a social network's rate limit is per account, and one stuck story must not
  // hold up the rest for longer than its own bounded attempt.
  for (const [index, entry] of due.entries()) {
    const result = await announceStory(ctx, announcer, entry.slug, options.now === undefined ? {} : { judgeAt: options.now });
    report.results.push(result);
    report.outcomes[result.outcome] = (report.outcomes[result.outcome] ?? 0) + 1;
    options.onStory?.(result, index, due.length);
    const kind = result.failure?.kind;
    if (kind === 'credentials' || kind === 'rate_limited') {
      report.stopped = kind === 'credentials' ? 'the account refused the app password' : 'rate limited';
      break;
    }
  }
  report.skipped = await skippedAnnouncements(ctx, at, limit);
  return report;
}

export interface SweepSchedule {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** The shortest wait between two runs, so an entry that stays due (a rate limit, a store fault) is no busy loop. */
const MIN_WAIT_MS = 250;

/**
 * Runs a sweep at once, then again when the earliest queue entry is due (a retry's backoff has
 * passed, a claim turned stale) and at the latest every `intervalMs`; never two at once. An
 * attempt after publishing that leaves a retry owed makes it look at the queue again, so after an
 * outage the retry goes out on its backoff schedule, not one interval later. Failures are logged
 * and the next run goes on.
 */
export function scheduleAnnounceSweeps(
  ctx: AppContext & { announcing?: AnnounceSoon },
  announcer: Announcer,
  intervalMs: number,
): SweepSchedule {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (Date.now() time), Infinity when none is armed. */
  let wakeAt = Number.POSITIVE_INFINITY;
  /** After a run stopped on a rate limit or a refused password, nothing runs before this. */
  let quietUntil = 0;

  const arm = (delayMs: number): void => {
    const at = Math.max(quietUntil, Date.now() + Math.max(MIN_WAIT_MS, delayMs));
    if (stopped || at >= wakeAt) return;
    clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(run, at - Date.now());
    timer.unref();
  };

  /** Arms the timer for the earliest queue entry, or the interval when none is due sooner. */
  const armFromQueue = async (): Promise<void> => {
    let delayMs = intervalMs;
    try {
      const first = await firstAnnouncementDue(ctx.store);
      if (first !== undefined) delayMs = Math.min(intervalMs, Date.parse(first) - ctx.store.now());
    } catch (error) {
      announcer.log(
        `announce sweep: could not read the queue (${(error as Error).message ?? String(error)}); looking again in ${intervalMs} ms`,
      );
    }
    arm(delayMs);
  };

  const run = (): void => {
    wakeAt = Number.POSITIVE_INFINITY;
    timer = undefined;
    running = running.then(async () => {
      if (stopped) return;
      try {
        const report = await sweepAnnouncements(ctx, announcer);
        if (report.due > 0 || report.stopped !== undefined || report.set_aside.length > 0)
          announcer.log(`announce sweep: ${summarize(report)}`);
        // The next story would only be refused too: wait the whole interval, whatever is due.
        if (report.stopped !== undefined) quietUntil = Date.now() + intervalMs;
      } catch (error) {
        announcer.log(`announce sweep failed: ${(error as Error).message ?? String(error)}`);
      }
      await armFromQueue();
    });
  };

  const unsubscribe = ctx.announcing?.onRetryOwed(() => void armFromQueue());
  arm(0);
  return {
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(timer);
      await running;
    },
  };
}

export function summarize(report: SweepReport): string {
  const counts = Object.entries(report.outcomes).map(([outcome, count]) => `${count} ${outcome}`);
  const skipped = summarizeSkipped(report.skipped, Date.parse(report.at));
  const setAside =
    report.set_aside.length === 0
      ? ''
      : `; set aside ${report.set_aside.length} too old (owed since ${report.set_aside[0]?.owed_since}; npm run sweep -- --backlog posts them)`;
  return `${report.due} due${counts.length > 0 ? `: ${counts.join(', ')}` : ''}${report.stopped === undefined ? '' : ` (stopped: ${report.stopped})`}${skipped === '' ? '' : `; skipped ${skipped}`}${setAside}`;
}
