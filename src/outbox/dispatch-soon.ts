// The notification dispatcher where no table stream runs it (`npm start`), and the backstop for
// redactions a crash left half done (design.md#redaction-export): a run right after a
// write committed an outbox event (AppContext.dispatchSoon), and one every interval as the
// backstop for an event whose run was lost (a crash between the commit and the run, a store
// error), starting with one run at once for what an earlier process left. Runs never overlap in
// this process: a request while one is in progress asks for one more run after it, so a burst of
// corrections costs a few runs, not one per edit. Another process (a second `npm start`, the
// cloud's stream) may dispatch the same event at the same time: the dispatcher is twice-safe per
// event and recipient, so each reproducer is told once.

import { DEFAULT_DELETION_STEPS_PER_RUN, runAccountDeletions } from '../app/account/run-account-deletions.ts';
import type { AppContext } from '../app/context/app-context.ts';
import { finishRedactions, REDACTIONS_PER_RUN } from '../app/redaction/finish-redaction.ts';
import { DEFAULT_EVENTS_PER_RUN, dispatchNotifications } from './dispatch-notifications.ts';

export interface NotificationDispatch {
  /** What AppContext.dispatchSoon calls: a run now, or one more after the run in progress. */
  soon(): void;
  /** Stops the backstop and waits for the run in progress (shutdown, tests). */
  stop(): Promise<void>;
}

export interface DispatchSchedule {
  /** The backstop's period. */
  intervalMs: number;
  log(line: string): void;
}

export function startNotificationDispatch(ctx: AppContext, schedule: DispatchSchedule): NotificationDispatch {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const runOnce = async (): Promise<void> => {
    try {
      const result = await dispatchNotifications(ctx);
      if (result.events > 0) {
        schedule.log(
          `lorebook: notifications: ${result.events} outbox event(s) delivered (${result.notifications_created} created, ${result.already_present} already present)`,
        );
      }
      // A full page: more events may be waiting behind it.
      if (result.events === DEFAULT_EVENTS_PER_RUN) again = true;
      // A redaction a crash left half done (design.md#redaction-export): its steps are idempotent, like a delivery.
      const redactions = await finishRedactions(ctx);
      if (redactions.events > 0) {
        schedule.log(
          `lorebook: redactions: ${redactions.events} finished (${redactions.revisions_stripped} revision(s) stripped, ${redactions.images_deleted} image(s) deleted)`,
        );
      }
      if (redactions.events === REDACTIONS_PER_RUN) again = true;
      // Account deletions under way (design.md#account-deletion) ride the same runs: no table stream drives them here.
      const deletions = await runAccountDeletions(ctx);
      if (deletions.finished.length > 0)
        schedule.log(`lorebook: ${deletions.finished.length} account deletion(s) finished (${deletions.steps} step(s))`);
      if (deletions.steps === DEFAULT_DELETION_STEPS_PER_RUN) again = true;
    } catch (error) {
      schedule.log(`lorebook: notification dispatch failed (${(error as Error).message ?? String(error)}); the next run retries`);
    }
  };

  const drain = async (): Promise<void> => {
    do {
      again = false;
      await runOnce();
    } while (again && !stopped);
    // Cleared in the same turn as the last check of `again`, so no request falls in between.
    running = undefined;
  };

  const soon = (): void => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = drain();
  };

  const timer = setInterval(soon, schedule.intervalMs);
  timer.unref();
  soon();
  return {
    soon,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
