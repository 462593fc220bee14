// An operator's ban and unban (design.md#bans, docs/moderation.md): a reversible suspension.
// The ban is one transaction: the account item gets `banned` (from then on every call of the
// account answers account_suspended and every credential created before it stays refused for
// good, `reset_at`), its sweep, the audit records and the op record (`OP#<actor>/<op_id>`). Then
// the sweep (sweep.ts) takes its reports out of the counts and holds its stories. An unban
// starts the reverse sweep; the account stays suspended until it has put everything back.
// Both run their sweep to the end before answering; run again (the same op_id or a new one) they
// resume an interrupted sweep and finish it once.
import { z } from 'zod';
import { LorebookError } from '../../../domain/errors.ts';
import { fingerprint } from '../../../domain/fingerprint.ts';
import { parseOpId } from '../../../domain/op-id.ts';
import { lookUpOp, type OpRequest, opRecordKey, recordOp } from '../../../store/apply-once.ts';
import { accountStanding } from '../../../store/identity/account/deletion-items.ts';
import { banOf, banSweepOf, markBanned, type SweepKind, startUnban } from '../../../store/identity/ban-items.ts';
import { accountKey } from '../../../store/keys.ts';
import { pick } from '../../../store/read-items.ts';
import { resolveAccount } from '../../account/operator-deletion.ts';
import type { AppContext } from '../../context/app-context.ts';
import { parseWriteInput } from '../../input/parse-write-input.ts';
import { writeLoop } from '../../write/write-loop.ts';
import { banAuditRecords } from './audit.ts';
import { runSweep } from './sweep.ts';

export const MAX_BAN_REASON_CHARS = 500;

const banInputSchema = z.object({
  target: z.string().min(1).max(300),
  reason: z.string().trim().min(1).max(MAX_BAN_REASON_CHARS),
  actor: z.string().min(1).max(200),
  op_id: z.string(),
});

export type BanInput = z.input<typeof banInputSchema>;

export interface BanOutcome {
  account: string;
  handle: string;
  /** `banned`/`unbanned`: this call did it; `already_banned`/`not_banned`: nothing was written. */
  status: 'banned' | 'already_banned' | 'unbanned' | 'not_banned';
  /** When the ban began (absent once unbanned). */
  since?: string;
  /** Sweep steps this call ran, and the reports and stories they moved. */
  steps: number;
  moved: number;
}

type Decided = Omit<BanOutcome, 'steps' | 'moved'>;

export async function banAccount(ctx: AppContext, raw: BanInput): Promise<BanOutcome> {
  return banOrUnban(ctx, raw, 'ban');
}

export async function unbanAccount(ctx: AppContext, raw: BanInput): Promise<BanOutcome> {
  return banOrUnban(ctx, raw, 'unban');
}

async function banOrUnban(ctx: AppContext, raw: BanInput, action: SweepKind): Promise<BanOutcome> {
  const input = await parseWriteInput(banInputSchema, raw, action, ctx);
  const opId = parseOpId(input.op_id);
  const { account, handle } = await resolveAccount(ctx, input.target);
  const op: OpRequest = { account: input.actor, opId, tool: action, fingerprint: fingerprint(action, { account, reason: input.reason }) };
  const opKey = opRecordKey(op);
  const decided = await writeLoop<Decided>(ctx, {
    reads: [opKey, accountKey(account)],
    plan(read, { now }) {
      const replay = lookUpOp<Decided>(pick(read, opKey), op, now);
      if (replay.kind === 'replay') return { outcome: replay.outcome, actions: [] };
      const item = pick(read, accountKey(account));
      const standing = accountStanding(item);
      if (standing.kind === 'deleting' || standing.kind === 'deleted' || standing.kind === 'none') {
        throw new LorebookError('not_found', `There is no live account ${input.target} here (it is deleted or being deleted).`, {
          retryable: false,
        });
      }
      const at = new Date(now).toISOString();
      const sweep = banSweepOf(item);
      const ban = banOf(item);
      const audit = banAuditRecords({ action, actor: input.actor, reason: input.reason, account, op_id: opId, at });
      if (action === 'ban') {
        if (sweep?.kind === 'unban') throw unbanUnderWay(input.target, ctx);
        if (ban !== undefined) return { outcome: { account, handle, status: 'already_banned', since: ban.since }, actions: [] };
        const outcome: Decided = { account, handle, status: 'banned', since: at };
        const marked = markBanned(account, { reason: input.reason, since: at, actor: input.actor, op_id: opId });
        return { outcome, actions: [marked, ...audit, recordOp(op, outcome, now, ctx.config.opTtlSeconds)] };
      }
      if (ban === undefined) return { outcome: { account, handle, status: 'not_banned' }, actions: [] };
      // An unban already under way is resumed, not started again.
      if (sweep?.kind === 'unban') return { outcome: { account, handle, status: 'unbanned' }, actions: [] };
      const outcome: Decided = { account, handle, status: 'unbanned' };
      return { outcome, actions: [startUnban(account, opId, sweep), ...audit, recordOp(op, outcome, now, ctx.config.opTtlSeconds)] };
    },
    answerCancelled(cancelled) {
      const record = cancelled.conditionFailedOn(opKey)?.item;
      const replay = lookUpOp<Decided>(record, op, ctx.store.now());
      return replay.kind === 'replay' ? replay.outcome : undefined;
    },
  });
  const run = await runSweep(ctx, account, action);
  return { ...decided, ...run };
}

function unbanUnderWay(target: string, ctx: AppContext): LorebookError {
  return new LorebookError('conflict', `An unban of ${target} is under way; ban again once it has finished.`, {
    retryAfterMs: ctx.config.conflictBackoffMs,
  });
}
