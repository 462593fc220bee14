// The sweeper function, invoked every minute by an EventBridge rule: one run of the announce
// sweeper (stories whose attempt was lost, failed ones whose backoff has passed, stale claims),
// and one run of the notification dispatcher as a backstop for outbox events whose stream
// records ended in the DLQ, one batch of the capability re-scan (stories scanned by an older
// scanner version, docs/capability.md), and the search snapshot job (docs/design.md#search). All are
// twice-safe, so an overlapping or repeated run changes nothing.
// @NOTE the Bluesky session is not persisted: a cold start signs in again (on first use only:
// a run with nothing due never signs in). At a 1-minute rate the container stays warm, so that
// is a few sign-ins a day, far below Bluesky's createSession limits (docs/deploy.md).

import type { ScheduledEvent } from 'aws-lambda';
import { runAccountDeletions } from '../src/app/account/run-account-deletions.ts';
import { describeBatch, type RescanBatchOptions, type RescanBatchReport, rescanBatch } from '../src/app/capability/rescan/batch.ts';
import type { AppContext } from '../src/app/context/app-context.ts';
import { finishRedactions, type RedactionRun } from '../src/app/redaction/finish-redaction.ts';
import { runSnapshotJob, type SnapshotJobReport } from '../src/app/search/search-snapshot-job.ts';
import { describeSnapshotJob } from '../src/app/search/snapshot-schedule.ts';
import type { Announcer } from '../src/outbox/announce/announcer.ts';
import { type SweepReport, summarize, sweepAnnouncements } from '../src/outbox/announce/sweeper.ts';
import { type DispatchResult, dispatchNotifications } from '../src/outbox/dispatch-notifications.ts';
import { outboxAgeSeconds } from '../src/outbox/outbox-age.ts';
import { announcingRuntime } from './announcing-runtime.ts';
import { type HandlerDeps, withMetricsFlushed } from './lambda-runtime.ts';

/** Deletion steps one sweep runs at most, across accounts: bounded so the rest of the sweep keeps its time. */
const SWEEPER_DELETION_STEPS = 50;

export interface SweeperResult {
  dispatch: DispatchResult;
  /** Redactions a crash left half done, finished (design.md#redaction-export). */
  redactions: RedactionRun;
  /** Undefined when announcing is off. */
  announce: Omit<SweepReport, 'results'> | undefined;
  rescan: RescanBatchReport;
  /** Undefined when no snapshot store is configured. */
  search: SnapshotJobReport | undefined;
}

export const SWEEPER_RESCAN_BUDGET_MS = 30_000;

export type SweeperHandler = (event: ScheduledEvent) => Promise<SweeperResult>;

/** `rescan`: the re-scan batch's options (a test's version bump); the running scanner's by default. */
export function createSweeperHandler(deps: HandlerDeps = {}, rescan: RescanBatchOptions = {}): SweeperHandler {
  const runtime = announcingRuntime(deps);
  return () =>
    withMetricsFlushed(async () => {
      const { ctx, announcer, log } = await runtime();
      const dispatch = await dispatchNotifications(ctx);
      if (dispatch.events > 0) {
        log(
          `lorebook: sweeper delivered ${dispatch.events} outbox event(s) the stream did not: ${dispatch.notifications_created} notification(s) created, ${dispatch.already_present} already present`,
        );
      }
      const redactions = await finishRedactions(ctx);
      if (redactions.events > 0) log(`lorebook: sweeper finished ${redactions.events} redaction(s) left half done`);
      // The backstop for account deletions whose chain of stream records broke (design.md#account-deletion).
      const deletions = await runAccountDeletions(ctx, SWEEPER_DELETION_STEPS);
      if (deletions.steps > 0)
        log(`lorebook: sweeper ran ${deletions.steps} account deletion step(s); ${deletions.finished.length} deletion(s) finished`);
      const announce = announcer === undefined ? undefined : await announceDue(ctx, announcer, log);
      // Only while announcing is on: with it off, stories wait on the queue by design.
      if (announcer !== undefined) ctx.metrics?.gauge('OutboxAgeSeconds', await outboxAgeSeconds(ctx));
      // After announcing, the time-sensitive part, and with half the default scanning budget, so an
      // announce run slowed by Bluesky timeouts and a batch of costly stories still fit in 120 s.
      const rescanned = await rescanBatch(ctx, { budgetMs: SWEEPER_RESCAN_BUDGET_MS, ...rescan });
      if (rescanned.results.length > 0 || rescanned.recorded.length > 0)
        log(`lorebook: capability re-scan to ${rescanned.scanner_version}: ${describeBatch(rescanned)}`);
      // Last: the others are time-sensitive, and the snapshot job's cost grows with the corpus.
      const search = ctx.searchSnapshots === undefined ? undefined : await runSnapshotJob(ctx, ctx.searchSnapshots);
      if (search !== undefined) log(`lorebook: search snapshot: ${describeSnapshotJob(search)}`);
      return { dispatch, redactions, announce, rescan: rescanned, search };
    });
}

async function announceDue(ctx: AppContext, announcer: Announcer, log: (line: string) => void): Promise<SweeperResult['announce']> {
  const report = await sweepAnnouncements(ctx, announcer, {
    onStory: (result, index, of) =>
      log(
        `lorebook: sweep [${index + 1}/${of}] ${result.slug}: ${result.outcome}${result.error === undefined ? '' : ` (${result.error})`}`,
      ),
  });
  log(`lorebook: announce sweep: ${summarize(report)}`);
  const { results: _results, ...announce } = report;
  return announce;
}

export const handler: SweeperHandler = createSweeperHandler();
