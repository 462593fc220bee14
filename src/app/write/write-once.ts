// The op record around the write loop (docs/design.md#write-rules, write-loop.ts): a write that takes an op_id
//   reads its op record with what the plan needs (one snapshot)
//   -> replays the stored answer if the op_id is already recorded (before any business rule)
//   -> commits the op record with the change, or with a check on what was read when it is empty
//   -> on cancellation looks at the op record first: a concurrent delivery may have won.
// Without an op_id it is the loop itself.
import type { CheckAction, StoredItem } from '../../store/actions.ts';
import { lookUpOp, type OpRequest, opRecordKey, recordOp } from '../../store/apply-once.ts';
import { accountKey, type ItemKey } from '../../store/keys.ts';
import { type ItemsByKey, MAX_SNAPSHOT_KEYS, pick } from '../../store/read-items.ts';
import { refuseGoneAccount } from '../caller/account-standing.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { type LoopPlan, type PlanContext, writeLoop } from './write-loop.ts';

export interface WritePlan<R> extends LoopPlan<R> {
  /** Conditions on what the plan read, committed with the op record when the change is empty. */
  guards: CheckAction[];
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

export async function writeOnce<R extends object>(ctx: AppContext, unguarded: WriteRequest<R>): Promise<Replayed<R>> {
  const request = guardedByAccount(unguarded);
  if (request.opId === undefined) return (await writeLoop<R>(ctx, request)) as Replayed<R>;
  const op: OpRequest = { account: request.caller.account, opId: request.opId, tool: request.tool, fingerprint: request.fingerprint };
  const opKey = opRecordKey(op);
  const replay = (record: StoredItem | undefined, now: number): Replayed<R> | undefined => {
    const stored = lookUpOp<R>(record, op, now);
    return stored.kind === 'replay' ? { ...stored.outcome, replayed: true } : undefined;
  };

  return writeLoop<Replayed<R>>(ctx, {
    reads: [opKey, ...request.reads],
    async plan(read, context) {
      const replayed = replay(pick(read, opKey), context.now);
      if (replayed !== undefined) return { outcome: replayed, actions: [] };
      const plan = await request.plan(read, context);
      const change = plan.actions.length > 0 ? plan.actions : plan.guards;
      return {
        outcome: plan.outcome as Replayed<R>,
        actions: [recordOp(op, plan.outcome, context.now, ctx.config.opTtlSeconds), ...change],
      };
    },
    // Read in order, op record first: a concurrent delivery of this op_id won the race.
    answerCancelled: (cancelled) => replay(cancelled.conditionFailedOn(opKey)?.item, ctx.store.now()),
  });
}

/**
 * Every write by an account reads its account item in the same snapshot (no extra round trip) and
 * is refused when a deletion was accepted (design.md#account-deletion). Nothing is added to the transaction: a
 * ConditionCheck on the one account item would make every single Put a transaction (twice the
 * write capacity) and a fan-out of one account's writes conflict with itself. A write that read
 * the account before the mark and commits after it is found by the deletion's steps, which finish
 * no sooner than a grace longer than any write attempt (deletion-step.ts).
 * @NOTE no read is added where the write reads nothing (mark_notifications_read up_to) or the
 * snapshot is full (mark_notifications_read of 99 ids): those touch only the account's inbox and
 * op record, which deletion removes anyway.
 */
function guardedByAccount<R extends object>(request: WriteRequest<R>): WriteRequest<R> {
  const key = accountKey(request.caller.account);
  // The op record takes one place in the snapshot.
  if (request.reads.length === 0 || request.reads.length + 2 > MAX_SNAPSHOT_KEYS) return request;
  return {
    ...request,
    reads: [...request.reads, key],
    plan(read, context) {
      refuseGoneAccount(pick(read, key));
      return request.plan(read, context);
    },
  };
}
