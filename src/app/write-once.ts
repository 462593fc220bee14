// The one path every write use case takes (design §4):
//   read (op record + what the plan needs, one round trip, consistent)
//   -> replay if the op_id is already recorded (before any business rule)
//   -> plan (pure: the actions and the answer)
//   -> one transaction: op record + change, or op record + a check on what was read
//   -> on cancellation: op record first, then re-read and re-plan, a bounded number of times.
import { LorebookError } from '../domain/errors.ts';
import type { CheckAction, WriteAction } from '../store/actions.ts';
import { lookUpOp, opRecordKey, recordOp, type OpRequest } from '../store/apply-once.ts';
import type { ItemKey } from '../store/keys.ts';
import { pick, ReadConflict, readSnapshot, type ItemsByKey } from '../store/read-items.ts';
import { writeAtomically } from '../store/run-write.ts';
import { WriteCancelled } from '../store/write-cancelled.ts';
import type { AppContext, Caller } from './app-context.ts';

export interface WritePlan<R> {
  /** The answer; stored verbatim in the op record when an op_id is given. */
  outcome: R;
  /** The change; empty when the call changes nothing (an identical write). */
  actions: WriteAction[];
  /** Conditions on what the plan read, committed with the op record when the change is empty. */
  guards: CheckAction[];
}

export interface PlanContext {
  /** 1 for the first plan, higher after a cancelled transaction. */
  attempt: number;
  /** What the first attempt read: content writes compare against it so they never re-apply on a newer revision. */
  firstRead: ItemsByKey;
  /** The time of this attempt (epoch ms), one value for every item the plan writes. */
  now: number;
}

export interface WriteRequest<R extends object> {
  tool: string;
  caller: Caller;
  opId: string | undefined;
  /** Versioned fingerprint of the normalised input. */
  fingerprint: string;
  reads: readonly ItemKey[];
  plan(read: ItemsByKey, context: PlanContext): WritePlan<R> | Promise<WritePlan<R>>;
}

export type Replayed<R extends object> = R & { replayed?: true };

export async function writeOnce<R extends object>(ctx: AppContext, request: WriteRequest<R>): Promise<Replayed<R>> {
  const op: OpRequest | undefined =
    request.opId === undefined
      ? undefined
      : { account: request.caller.account, opId: request.opId, tool: request.tool, fingerprint: request.fingerprint };
  const keys = op === undefined ? request.reads : [opRecordKey(op), ...request.reads];
  let firstRead: ItemsByKey | undefined;

  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const now = ctx.store.now();
    let read: ItemsByKey;
    try {
      // One snapshot: a plan must never see half of a competing transaction (BatchGetItem can).
      read = await readSnapshot(ctx.store, keys);
    } catch (error) {
      if (!(error instanceof ReadConflict)) throw error;
      await ctx.sleep(backoff(ctx, attempt));
      continue;
    }
    firstRead ??= read;
    if (op !== undefined) {
      const stored = lookUpOp<R>(pick(read, opRecordKey(op)), op, now);
      if (stored.kind === 'replay') return { ...stored.outcome, replayed: true };
    }
    const plan = await request.plan(read, { attempt, firstRead, now });
    const change: WriteAction[] = plan.actions.length > 0 ? plan.actions : op === undefined ? [] : plan.guards;
    const actions = op === undefined ? change : [recordOp(op, plan.outcome, now, ctx.config.opTtlSeconds), ...change];
    if (actions.length === 0) return plan.outcome as Replayed<R>;
    try {
      await writeAtomically(ctx.store, actions);
      return plan.outcome as Replayed<R>;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      if (op !== undefined) {
        // Read in order, op record first: a concurrent delivery of this op_id won the race.
        const existing = error.conditionFailedOn(opRecordKey(op))?.item;
        const stored = lookUpOp<R>(existing, op, ctx.store.now());
        if (stored.kind === 'replay') return { ...stored.outcome, replayed: true };
      }
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
