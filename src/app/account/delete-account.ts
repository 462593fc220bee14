// delete_account (design.md#account-deletion): marks the account and records the deletion's outbox event in one
// transaction, then answers; the bounded steps (deletion-step.ts) do the rest in the background.
// The marker is where every later write and credential of the account is refused. Twice-safe: a
// second request (or 16 at once, or an op_id replay) finds the marker and answers the same
// `since`, writing nothing; the op record commits with the marker, never after it, so no op
// record is left behind once the steps have removed the account's.
import { validationFailed } from '../../domain/errors.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import { parseOpId } from '../../domain/op-id.ts';
import type { WriteAction } from '../../store/actions.ts';
import { lookUpOp, type OpRequest, opRecordKey, recordOp } from '../../store/apply-once.ts';
import { accountStanding, deletionEvent, markAccountDeleting } from '../../store/identity/account/deletion-items.ts';
import { accountItem } from '../../store/identity/account/items.ts';
import { accountKey } from '../../store/keys.ts';
import { pick } from '../../store/read-items.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { accountGone } from '../caller/account-standing.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type LoopPlan, writeLoop } from '../write/write-loop.ts';
import type { Replayed } from '../write/write-once.ts';
import { DELETE_ACCOUNT, type DeletionAccepted, deleteAccountInputSchema } from './delete-account.contract.ts';

export async function deleteAccount(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DeletionAccepted>> {
  const input = await parseWriteInput(deleteAccountInputSchema, raw, DELETE_ACCOUNT, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const confirm = input.confirm.trim();
  const op: OpRequest | undefined =
    opId === undefined
      ? undefined
      : { account: caller.account, opId, tool: DELETE_ACCOUNT, fingerprint: fingerprint(DELETE_ACCOUNT, { confirm }) };
  const key = accountKey(caller.account);

  const accepted = await writeLoop<Replayed<DeletionAccepted>>(ctx, {
    reads: op === undefined ? [key] : [key, opRecordKey(op)],
    plan(read, { now }): LoopPlan<Replayed<DeletionAccepted>> {
      if (op !== undefined) {
        const stored = lookUpOp<DeletionAccepted>(pick(read, opRecordKey(op)), op, now);
        if (stored.kind === 'replay') return { outcome: { ...stored.outcome, replayed: true }, actions: [] };
      }
      const item = pick(read, key);
      const standing = accountStanding(item);
      // Already accepted: the same answer, nothing written (not even an op record the steps may have passed).
      if (standing.kind === 'deleting') return { outcome: { status: 'deleting', since: standing.since }, actions: [] };
      if (standing.kind === 'deleted') throw accountGone();
      const handle = standing.kind === 'live' ? standing.handle : caller.handle;
      if (confirm !== handle) {
        throw validationFailed("The handle typed to confirm the deletion is not this account's current handle. Nothing was deleted.", {
          confirm: `Type the account's current handle exactly (${handle}) to delete it.`,
        });
      }
      const at = new Date(now).toISOString();
      const outcome: DeletionAccepted = { status: 'deleting', since: at };
      const request = { account: caller.account, handle, at };
      // An account from before account items has none: it is made here, already marked.
      const mark =
        item === undefined
          ? createItem({ ...accountItem({ id: caller.account, handle, created_at: at }), deleting_since: at })
          : markAccountDeleting(request);
      const actions: WriteAction[] = [mark, deletionEvent(request)];
      if (op !== undefined) actions.push(recordOp(op, outcome, now, ctx.config.opTtlSeconds));
      return { outcome, actions };
    },
    // A concurrent delivery of this op_id won: replay it. Anything else re-reads and finds the marker.
    answerCancelled: (cancelled) => {
      if (op === undefined) return undefined;
      const stored = lookUpOp<DeletionAccepted>(cancelled.conditionFailedOn(opRecordKey(op))?.item, op, ctx.store.now());
      return stored.kind === 'replay' ? { ...stored.outcome, replayed: true } : undefined;
    },
  });
  // Under `npm start` the steps start now; in the cloud the event's stream record starts them.
  ctx.dispatchSoon?.();
  return accepted;
}
