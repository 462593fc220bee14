// A ban's items (design.md#bans), all on the account item:
//   banned     {reason, since, actor, op_id}: set by the ban, removed by the unban's last step; while
//              it is there the account acts no more (account_suspended)
//   ban_sweep  {kind, op_id, phase, cursor?, steps}: the resumable walk over the account's reports
//              and stories that a ban or an unban makes; each step moves it conditioned on the steps
//              read, so two runners never both commit a step and a crash loses at most one
//   reset_at   set to the ban's time: every credential created before it stays refused for good
import type { StoredItem, UpdateAction } from '../actions.ts';
import { and, type Condition } from '../condition.ts';
import { accountKey } from '../keys.ts';
import { updateItem } from '../update-item.ts';

export interface BanRecord {
  reason: string;
  since: string;
  actor: string;
  op_id: string;
}

export type SweepKind = 'ban' | 'unban';
export type SweepPhase = 'reports' | 'stories';

export interface BanSweep {
  kind: SweepKind;
  op_id: string;
  phase: SweepPhase;
  /** The sort key of the last item this sweep finished in its phase. */
  cursor?: string;
  steps: number;
}

export function banOf(item: StoredItem | undefined): BanRecord | undefined {
  const ban = item?.banned as Partial<BanRecord> | undefined;
  if (typeof ban?.reason !== 'string' || typeof ban.since !== 'string') return undefined;
  return { reason: ban.reason, since: ban.since, actor: String(ban.actor), op_id: String(ban.op_id) };
}

export function banSweepOf(item: StoredItem | undefined): BanSweep | undefined {
  const sweep = item?.ban_sweep as Partial<BanSweep> | undefined;
  if (sweep?.kind === undefined || typeof sweep.op_id !== 'string') return undefined;
  return {
    kind: sweep.kind,
    op_id: sweep.op_id,
    phase: sweep.phase ?? 'reports',
    ...(typeof sweep.cursor === 'string' ? { cursor: sweep.cursor } : {}),
    steps: Number(sweep.steps ?? 0),
  };
}

/** A live account (not deleting, deleted or banned) becomes banned, with its sweep to run. */
export function markBanned(account: string, ban: BanRecord): UpdateAction {
  const sweep: BanSweep = { kind: 'ban', op_id: ban.op_id, phase: 'reports', steps: 0 };
  return updateItem(
    accountKey(account),
    { set: { banned: ban, ban_sweep: sweep, reset_at: ban.since } },
    {
      expression:
        'attribute_exists(#handle) AND attribute_not_exists(#deleting) AND attribute_not_exists(#deleted) AND attribute_not_exists(#banned)',
      names: { '#handle': 'handle', '#deleting': 'deleting_since', '#deleted': 'deleted_at', '#banned': 'banned' },
    },
  );
}

/** The unban's sweep replaces the ban's (finished or not); the account stays banned until it ends. */
export function startUnban(account: string, opId: string, sweepRead: BanSweep | undefined): UpdateAction {
  const sweep: BanSweep = { kind: 'unban', op_id: opId, phase: 'reports', steps: 0 };
  return updateItem(accountKey(account), { set: { ban_sweep: sweep } }, and(bannedCondition, sweepAsRead(sweepRead)));
}

/** One step of the sweep done: its phase and cursor move, conditioned on the sweep read. */
export function advanceSweep(account: string, read: BanSweep, next: { phase: SweepPhase; cursor?: string }): UpdateAction {
  const sweep: BanSweep = { kind: read.kind, op_id: read.op_id, phase: next.phase, steps: read.steps + 1 };
  if (next.cursor !== undefined) sweep.cursor = next.cursor;
  return updateItem(accountKey(account), { set: { ban_sweep: sweep } }, sweepAsRead(read));
}

/** The sweep's last step: a ban's leaves the account banned; an unban's lifts the ban. */
export function finishSweep(account: string, read: BanSweep): UpdateAction {
  return updateItem(accountKey(account), { remove: read.kind === 'ban' ? ['ban_sweep'] : ['ban_sweep', 'banned'] }, sweepAsRead(read));
}

const bannedCondition: Condition = { expression: 'attribute_exists(#banned)', names: { '#banned': 'banned' } };

function sweepAsRead(read: BanSweep | undefined): Condition {
  if (read === undefined) return { expression: 'attribute_not_exists(#sweep)', names: { '#sweep': 'ban_sweep' } };
  return {
    expression: '#sweep.#op = :sweepOp AND #sweep.#steps = :sweepSteps',
    names: { '#sweep': 'ban_sweep', '#op': 'op_id', '#steps': 'steps' },
    values: { ':sweepOp': read.op_id, ':sweepSteps': read.steps },
  };
}
