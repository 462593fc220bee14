// After an edit whose transaction wrote a correction's outbox event, start a dispatcher run so
// the reproducers' inboxes get it within moments. Best effort, never awaited: the event, written
// in the same transaction, guarantees the delivery later (the table stream in the cloud, the
// periodic backstop under `npm start`). A replay committed nothing, so it starts nothing.
import type { AppContext } from '../context/app-context.ts';

export function notifyAfterCommit<R extends { notified: number; replayed?: true }>(ctx: AppContext, outcome: R): R {
  if (outcome.notified > 0 && outcome.replayed !== true) ctx.dispatchSoon?.();
  return outcome;
}
