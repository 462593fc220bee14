// What `npm run moderate` prints on stdout for a person (without --json): one line per queue
// entry, a short block for `show`, one line per action.
import type { ApproveHeldOutcome } from '../../app/moderation/approve-held.ts';
import type { BanOutcome } from '../../app/moderation/ban/account.ts';
import type { ModerationRecord } from '../../app/moderation/moderation-record.ts';
import type { OperatorOutcome } from '../../app/moderation/operator-action.ts';
import type { QueueEntry } from '../../app/moderation/operator-queue.ts';
import type { SetSettingOutcome } from '../../app/settings/set-setting.ts';

export function queueText(entries: readonly QueueEntry[]): string {
  if (entries.length === 0) return 'moderate: the queue is empty';
  return entries.map((entry) => `${entry.at}  ${entry.kind.padEnd(KIND_WIDTH)}  ${entry.slug}  ${queueLine(entry)}`).join('\n');
}

const KIND_WIDTH = 'held_announcement'.length;

function queueLine(entry: QueueEntry): string {
  switch (entry.kind) {
    case 'spam_wave':
      return `${entry.copies} near-duplicate(s) refused from ${entry.accounts.length} account(s) since ${entry.first_at}, latest "${entry.refused[0]?.title ?? ''}" by ${entry.refused[0]?.account ?? ''}`;
    case 'held_announcement':
      return `"${entry.title}"  (not announced: ${entry.held_reason} until ${entry.held_until}; approve <slug> to announce now)`;
    default: {
      const why = entry.reason ?? `${entry.flags} flag(s): ${entry.reasons.join(', ') || 'none'}`;
      const appeal = entry.kind === 'appeal' ? ` — appeal: ${entry.note ?? ''}` : '';
      return `"${entry.title}"  (${why})${appeal}`;
    }
  }
}

export function recordText(record: ModerationRecord): string {
  const state = record.moderation;
  const lines = [
    `${record.slug}  "${record.title}"`,
    `author: ${record.author}; ${record.visibility}, ${record.hidden ? 'hidden' : 'shown'}; ${record.flag_count} counted flag(s)`,
    state === null
      ? 'moderation: none'
      : `moderation: ${state.state} since ${state.since} (${state.reason ?? `flags: ${state.reasons.join(', ')}`})`,
  ];
  if (state?.appeal !== undefined) lines.push(`appeal (${state.appeal.at}): ${state.appeal.note}`);
  lines.push(`flags (${record.flags.length}):`);
  for (const flag of record.flags) {
    lines.push(
      `  ${flag.at}  ${flag.account}  ${flag.reason}${flag.counted ? '' : ' (not counted)'}${flag.note === undefined ? '' : `: ${flag.note}`}`,
    );
  }
  lines.push(`audit (${record.audit.length}):`);
  for (const entry of record.audit)
    lines.push(`  ${String(entry.at)}  ${String(entry.action)} by ${String(entry.actor)}: ${String(entry.reason)}`);
  return lines.join('\n');
}

export function actionText(outcome: OperatorOutcome & { replayed?: true }): string {
  const done = outcome.action === 'quarantine' ? 'held for review' : 'restored';
  if (outcome.replayed === true)
    return `moderate: ${outcome.slug}: op ${outcome.op_id} already ran (${outcome.changed ? done : 'no change'}); nothing changed now`;
  if (!outcome.changed) return `moderate: ${outcome.slug}: already ${outcome.state} since ${outcome.since}; nothing changed`;
  return `moderate: ${outcome.slug}: ${done} (op ${outcome.op_id}); one audit record written`;
}

export function banText(outcome: BanOutcome): string {
  const who = `${outcome.handle} (${outcome.account})`;
  const moved = `${outcome.moved} report(s) and stories moved in ${outcome.steps} step(s)`;
  switch (outcome.status) {
    case 'banned':
      return `moderate: ${who}: banned since ${outcome.since ?? ''}; ${moved}`;
    case 'already_banned':
      return `moderate: ${who}: already banned since ${outcome.since ?? ''}; ${moved}`;
    case 'unbanned':
      return `moderate: ${who}: unbanned; ${moved}`;
    case 'not_banned':
      return `moderate: ${who}: not banned; nothing changed`;
  }
}

export function approveText(outcome: ApproveHeldOutcome & { replayed?: true }): string {
  if (outcome.replayed === true) return `moderate: ${outcome.slug}: this op already ran; nothing changed now`;
  return outcome.released
    ? `moderate: ${outcome.slug}: released; it is announced now; one audit record written`
    : `moderate: ${outcome.slug}: no announcement was held; nothing changed`;
}

export function announcingText(outcome: SetSettingOutcome & { replayed?: true }): string {
  if (outcome.replayed === true) return `moderate: announcing: this op already ran (${outcome.value}); nothing changed now`;
  return outcome.changed
    ? `moderate: announcing is ${outcome.value} (was ${outcome.previous ?? 'the default'}); one audit record written`
    : `moderate: announcing was already ${outcome.value}; nothing changed`;
}
