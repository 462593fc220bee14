// Drives the deletions under way (design.md#account-deletion): each outbox event `account-deletion#<account>` is
// stepped until it is finished or the run's step budget is spent. Run by the table stream (each
// committed step moves the event, whose record comes back for the next), by the sweeper as the
// backstop, by `npm start`'s dispatcher, and by `npm run account -- delete`. Every step is safe to
// run twice or at once in two processes (deletion-step.ts). A deletion waiting for its grace is
// left as it is: no step commits, so no stream record follows, and the next sweep (every minute)
// or dispatcher backstop run steps it again; nothing here waits or loops on it.
import { ACCOUNT_DELETION_EVENT_PREFIX, toDeletionEvent } from '../../store/identity/account/deletion-items.ts';
import { listOutboxEvents } from '../../store/story/outbox-query.ts';
import type { AppContext } from '../context/app-context.ts';
import { runDeletionStep, type StepResult } from './deletion-step.ts';

export const DEFAULT_DELETION_STEPS_PER_RUN = 200;
/** Raced steps in a row before a run leaves an account to the next one. */
const MAX_RACED = 5;

export interface DeletionRun {
  steps: number;
  finished: string[];
}

export async function runAccountDeletions(ctx: AppContext, maxSteps = DEFAULT_DELETION_STEPS_PER_RUN): Promise<DeletionRun> {
  const run: DeletionRun = { steps: 0, finished: [] };
  for (const item of await listOutboxEvents(ctx.store, ACCOUNT_DELETION_EVENT_PREFIX, 25)) {
    if (run.steps >= maxSteps) break;
    const result = await deleteAccountSteps(ctx, toDeletionEvent(item).account, maxSteps - run.steps);
    run.steps += result.steps;
    if (result.finished) run.finished.push(toDeletionEvent(item).account);
  }
  return run;
}

/** Steps one account's deletion until it finishes or `maxSteps` are spent. */
export async function deleteAccountSteps(
  ctx: AppContext,
  account: string,
  maxSteps: number,
  onStep?: (result: StepResult) => void,
): Promise<{ steps: number; finished: boolean; waitingUntil?: number }> {
  let steps = 0;
  let raced = 0;
  while (steps < maxSteps) {
    const result = await runDeletionStep(ctx, account);
    onStep?.(result);
    if (result.kind === 'none') return { steps, finished: false };
    if (result.kind === 'finished') return { steps: steps + 1, finished: true };
    if (result.kind === 'waiting') return { steps, finished: false, waitingUntil: result.until };
    if (result.kind === 'raced') {
      raced += 1;
      if (raced >= MAX_RACED) return { steps, finished: false };
      continue;
    }
    raced = 0;
    steps += 1;
    // The queue entry the tombstone wrote guarantees the post's deletion; this only starts it now.
    if (result.tombstoned !== undefined) ctx.announceSoon?.(result.tombstoned);
  }
  return { steps, finished: false };
}
