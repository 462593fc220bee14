// The audit record every operator action writes, in the same transaction as the action
// (docs/moderation.md, design.md#operators-audit): who, when, why, what changed. One item in the `MODLOG`
// partition (every action, newest last) and a copy under the target (what `moderate show` lists).
// Both are created once: a crash-and-retry of the same op_id cannot write a second record, since
// the op record commits with them.
import type { PutAction } from '../../store/actions.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { auditLogKey, auditTargetKey } from './audit-keys.ts';

export type AuditAction = 'quarantine' | 'restore' | 'ban' | 'unban' | 'approve' | 'announcing';

export interface AuditRecord {
  action: AuditAction;
  actor: string;
  reason: string;
  target_kind: 'story' | 'account' | 'site';
  target: string;
  /** What moved, attribute → [before, after]. */
  changes: Record<string, [unknown, unknown]>;
  op_id: string;
  at: string;
}

/**
 * The items of one audit record: the `MODLOG` item, and its copy under `targetPk`, the target's
 * partition (`STORY#<slug>`, `ACCOUNT#<id>`); a site-wide action (the announcing switch) has none.
 */
export function auditRecord(record: AuditRecord, targetPk?: string): PutAction[] {
  const log = createItem({ ...auditLogKey(record.at, record.op_id), ...record });
  return targetPk === undefined ? [log] : [log, createItem({ ...auditTargetKey(targetPk, record.at, record.op_id), ...record })];
}
