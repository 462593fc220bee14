// The op record around the write loop (docs/design.md §4, write-loop.ts): a write that takes an op_id
//   reads its op record with what the plan needs (one snapshot)
//   -> replays the stored answer if the op_id is already recorded (before any business rule)
//   -> commits the op record with the change, or with a check on what was read when it is empty
//   -> on cancellation looks at the op record first: a concurrent delivery may have won.
// Without an op_id it is the loop itself.
import type { CheckAction, StoredItem } from '../store/actions.ts';
import { lookUpOp, opRecordKey, recordOp, type OpRequest } from '../store/apply-once.ts';
import { accountKey, type ItemKey } from '../store/keys.ts';
import { accountStillHere } from '../store/identity/account-deletion-items.ts';
import { MAX_TRANSACTION_ACTIONS } from '../store/run-write.ts';
import { MAX_SNAPSHOT_KEYS, pick, type ItemsByKey } from '../store/read-items.ts';
import { accountGone, refuseGoneAccount } from './account/account-standing.ts';
import type { WriteCancelled } from '../store/write-cancelled.ts';
import type { AppContext, Caller } from './app-context.ts';
import { writeLoop, type LoopPlan, type PlanContext } from './write-loop.ts';

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
  // The account check failed in the transaction: a deletion was accepted since the read (or, for a write that reads nothing, at all).
  const refuseIfAccountGone = (cancelled: WriteCancelled): void => {
    if (cancelled.conditionFailedOn(accountKey(request.caller.account)) !== undefined) throw accountGone();
  };
  if (request.opId === undefined) {
    return (await writeLoop<R>(ctx, { ...request, answerCancelled: (cancelled) => void refuseIfAccountGone(cancelled) })) as Replayed<R>;
  }
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
    answerCancelled: (cancelled) => {
      const replayed = replay(cancelled.conditionFailedOn(opKey)?.item, ctx.store.now());
      if (replayed === undefined) refuseIfAccountGone(cancelled);
      return replayed;
    },
  });
}

/**
 * Every write by an account reads its account item in the same snapshot (no extra round trip) and
 * commits with a check that no deletion was accepted since (design §21): of a deletion and this
 * write, whichever commits second sees the other. A deletion first: this write is refused and
 * writes nothing. This write first: the deletion's steps, which start after the mark, find it.
 * @NOTE skipped only when the snapshot or the transaction has no room left (a full
 * mark_notifications_read, 99 updates): those writes touch only items deletion removes anyway.
 */
function guardedByAccount<R extends object>(request: WriteRequest<R>): WriteRequest<R> {
  const key = accountKey(request.caller.account);
  if (request.reads.length + 2 > MAX_SNAPSHOT_KEYS) return request;
  // A write that reads nothing (mark_notifications_read up_to) is not given a read: its transaction's check refuses it.
  const reads = request.reads.length === 0 ? [] : [...request.reads, key];
  const check = accountStillHere(request.caller.account);
  // The op record takes one place in the transaction.
  const room = (actions: readonly unknown[]): boolean => actions.length + 2 <= MAX_TRANSACTION_ACTIONS;
  return {
    ...request,
    reads,
    async plan(read, context) {
      refuseGoneAccount(pick(read, key));
      const plan = await request.plan(read, context);
      if (plan.actions.length > 0) return room(plan.actions) ? { ...plan, actions: [...plan.actions, check] } : plan;
      return room(plan.guards) ? { ...plan, guards: [...plan.guards, check] } : plan;
    },
  };
}
