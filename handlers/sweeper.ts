// The sweeper function, invoked every minute by an EventBridge rule: one run of the announce
// sweeper (stories whose attempt was lost, failed ones whose backoff has passed, stale claims),
// and one run of the notification dispatcher as a backstop for outbox events whose stream
// records ended in the DLQ. Both are twice-safe, so an overlapping or repeated run changes nothing.
// @NOTE the Bluesky session is not persisted: a cold start signs in again (on first use only:
// a run with nothing due never signs in). At a 1-minute rate the container stays warm, so that
// is a few sign-ins a day, far below Bluesky's createSession limits (docs/deploy.md).
import type { ScheduledEvent } from 'aws-lambda';
import { dispatchNotifications, type DispatchResult } from '../src/outbox/dispatch-notifications.ts';
import { summarize, sweepAnnouncements, type SweepReport } from '../src/outbox/announce-sweeper.ts';
import { announcingRuntime } from './announcing-runtime.ts';
import type { HandlerDeps } from './lambda-runtime.ts';

export interface SweeperResult {
  dispatch: DispatchResult;
  /** Undefined when announcing is off. */
  announce: Omit<SweepReport, 'results'> | undefined;
}

export type SweeperHandler = (event: ScheduledEvent) => Promise<SweeperResult>;

export function createSweeperHandler(deps: HandlerDeps = {}): SweeperHandler {
  const runtime = announcingRuntime(deps);
  return async () => {
    const { ctx, announcer, log } = await runtime();
    const dispatch = await dispatchNotifications(ctx);
    if (dispatch.events > 0) {
      log(
        `lorebook: sweeper delivered ${dispatch.events} outbox event(s) the stream did not: ${dispatch.notifications_created} notification(s) created, ${dispatch.already_present} already present`,
      );
    }
    if (announcer === undefined) return { dispatch, announce: undefined };
    const report = await sweepAnnouncements(ctx, announcer, {
      onStory: (result, index, of) =>
        log(
          `lorebook: sweep [${index + 1}/${of}] ${result.slug}: ${result.outcome}${result.error === undefined ? '' : ` (${result.error})`}`,
        ),
    });
    log(`lorebook: announce sweep: ${summarize(report)}`);
    const { results: _results, ...announce } = report;
    return { dispatch, announce };
  };
}

export const handler: SweeperHandler = createSweeperHandler();
