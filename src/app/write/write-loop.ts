// The read-plan-commit loop every write use case runs on (docs/design.md#write-rules):
//   read (what the plan needs, one round trip, consistent)
//   -> plan (pure: the actions and the answer)
//   -> one transaction
//   -> on cancellation: re-read and re-plan, a bounded number of times.
// A write keyed by its own input (an account, a client, a code) uses it as it is; a write that
// takes an op_id wraps it in the op record (write-once.ts).
import { LorebookError } from '../../domain/errors.ts';
import type { WriteAction } from '../../store/actions.ts';
import type { ItemKey } from '../../store/keys.ts';
import { type ItemsByKey, ReadConflict, readSnapshot } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import type { AppContext } from '../context/app-context.ts';

export interface LoopPlan<R> {
  /** The answer. */
  outcome: R;
  /** The change; empty when the call changes nothing (an identical write): then nothing is sent. */
  actions: WriteAction[];
}

export interface PlanContext {
  /** 1 for the first plan, higher after a cancelled transaction. */
  attempt: number;
  /** What the first attempt read: content writes compare against it so they never re-apply on a newer revision. */
  firstRead: ItemsByKey;
  /** The time of this attempt (epoch ms), one value for every item the plan writes. */
  now: number;
}

export interface LoopRequest<R> {
  reads: readonly ItemKey[];
  plan(read: ItemsByKey, context: PlanContext): LoopPlan<R> | Promise<LoopPlan<R>>;
  /**
   * Asked first when the transaction is cancelled: an answer that ends the loop (a concurrent
   * delivery of the same op won the race), or undefined to re-read and re-plan.
   */
  answerCancelled?(cancelled: WriteCancelled): R | undefined;
}

export async function writeLoop<R>(ctx: AppContext, request: LoopRequest<R>): Promise<R> {
  let firstRead: ItemsByKey | undefined;

  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const now = ctx.store.now();
    let read: ItemsByKey;
    try {
      // One snapshot: a plan must never see half of a competing transaction (BatchGetItem can).
      read = await readSnapshot(ctx.store, request.reads);
    } catch (error) {
      if (!(error instanceof ReadConflict)) throw error;
      await ctx.sleep(backoff(ctx, attempt));
      continue;
    }
    firstRead ??= read;
    const plan = await request.plan(read, { attempt, firstRead, now });
    if (plan.actions.length === 0) return plan.outcome;
    // The rate-limit count ran beside the read and the plan; a refused call stops here, before writing.
    await ctx.beforeCommit?.();
    try {
      await writeAtomically(ctx.store, plan.actions);
      return plan.outcome;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const answer = request.answerCancelled?.(error);
      if (answer !== undefined) return answer;
      // A condition failed: what the plan read has changed. Re-read and re-plan at once.
      // Only competing transactions: wait a jittered moment first (the SDK does not retry these).
      if (error.onlyTransactionConflicts) await ctx.sleep(backoff(ctx, attempt));
    }
  }
  throw new LorebookError(
    'conflict',
    'Other writes to the same story kept landing at the same moment. Nothing of yours was applied twice: retry the same call after retry_after_ms.',
    { retryAfterMs: backoff(ctx, ctx.config.maxWriteAttempts), details: { attempts: ctx.config.maxWriteAttempts } },
  );
}

/** Full jitter: a random wait up to base * 2^attempt, so competing retries spread out. */
function backoff(ctx: AppContext, attempt: number): number {
  return Math.ceil(ctx.random() * ctx.config.conflictBackoffMs * 2 ** attempt);
}
