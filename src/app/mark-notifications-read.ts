// mark_notifications_read — explicit ids, or every unread notification up to an id; never "all"
// (docs/design.md#write-rules: no guess bin). Marking is conditioned on `read = false`, so a duplicate, a parallel
// delivery or another device marking the same notification finds nothing left to write. Answers
// are derived from the state, so the same call twice answers the same.
import { validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import type { UpdateAction } from '../store/actions.ts';
import { type ItemKey, keyOf, notificationKey } from '../store/keys.ts';
import { pick } from '../store/read-items.ts';
import { queryInbox } from '../store/story/inbox-query.ts';
import { updateItem } from '../store/update-item.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import {
  MARK_READ_TOOL,
  MAX_MARKS_PER_CALL,
  type MarkedRead,
  markNotificationsReadInputSchema,
} from './mark-notifications-read.contract.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

/** Up to this many items are evaluated per round when looking for unread ones below `up_to`. */
const UP_TO_EVALUATE_PER_ROUND = 1000;
const UP_TO_ROUNDS = 3;

export async function markNotificationsRead(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<MarkedRead>> {
  const input = await parseWriteInput(markNotificationsReadInputSchema, raw, MARK_READ_TOOL, ctx);
  if ((input.ids === undefined) === (input.up_to === undefined)) {
    throw validationFailed('Send exactly one of `ids` or `up_to`; there is no "mark all".', {
      ids: 'The ids of the notifications you have seen, as list_notifications returned them.',
      up_to: 'Or the id of the newest notification you have seen: it and every older one are marked read.',
    });
  }
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  return input.ids !== undefined ? markIds(ctx, caller, input.ids, opId) : markUpTo(ctx, caller, input.up_to as string, opId);
}

function markIds(ctx: AppContext, caller: Caller, rawIds: readonly string[], opId: string | undefined): Promise<Replayed<MarkedRead>> {
  const ids = [...new Set(rawIds)].sort().reverse();
  const keyFor = (id: string): ItemKey => notificationKey(caller.account, id);
  return writeOnce<MarkedRead>(ctx, {
    tool: MARK_READ_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(MARK_READ_TOOL, { ids }),
    reads: ids.map(keyFor),
    plan(read): WritePlan<MarkedRead> {
      const found = ids.filter((id) => pick(read, keyFor(id)) !== undefined);
      const unread = found.filter((id) => pick(read, keyFor(id))?.read !== true);
      // @NOTE no guard when nothing is unread: `read` only ever goes from false to true.
      return {
        outcome: { read: found, unknown: ids.filter((id) => !found.includes(id)) },
        actions: unread.map((id) => markRead(keyFor(id))),
        guards: [],
      };
    },
  });
}

function markUpTo(ctx: AppContext, caller: Caller, upTo: string, opId: string | undefined): Promise<Replayed<MarkedRead>> {
  return writeOnce<MarkedRead>(ctx, {
    tool: MARK_READ_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(MARK_READ_TOOL, { up_to: upTo }),
    // Only the op record is read by key; the unread notifications are found by a query in the
    // plan, so an op_id replay costs one read and a re-plan after a lost race queries afresh.
    reads: [],
    async plan(): Promise<WritePlan<MarkedRead>> {
      const page = await queryInbox(ctx.store, {
        account: caller.account,
        limit: MAX_MARKS_PER_CALL + 1,
        upTo,
        unreadOnly: true,
        evaluatePerRound: UP_TO_EVALUATE_PER_ROUND,
        maxRounds: UP_TO_ROUNDS,
      });
      const batch = page.items.slice(0, MAX_MARKS_PER_CALL);
      // The first unread one left over, or where a bounded search stopped: never a guess, and a
      // long run of read notifications cannot make a caller repeat the same call forever.
      const nextUpTo = page.items[MAX_MARKS_PER_CALL]?.SK ?? page.next;
      return {
        outcome: nextUpTo === undefined ? { up_to: upTo, more: false } : { up_to: upTo, more: true, next_up_to: nextUpTo },
        actions: batch.map((item) => markRead(keyOf(item))),
        guards: [],
      };
    },
  });
}

/** Marks one notification read only while it is unread: a second marking finds nothing to do. */
export function markRead(key: ItemKey): UpdateAction {
  return updateItem(
    key,
    { set: { read: true } },
    { expression: '#read = :false', names: { '#read': 'read' }, values: { ':false': false } },
  );
}
