// The audit record of a ban or an unban (docs/moderation.md): one in the operator's log
// (`MODLOG`) and its copy under the account, written in the action's own transaction.
import type { PutAction } from '../../store/actions.ts';
import { accountKey } from '../../store/keys.ts';
import { createItem } from '../../store/replace-by-key.ts';
import { auditLogKey, auditTargetKey } from './audit-keys.ts';

export interface BanAudit {
  action: 'ban' | 'unban';
  actor: string;
  reason: string;
  account: string;
  op_id: string;
  at: string;
}

export function banAuditRecords(audit: BanAudit): PutAction[] {
  const banned = audit.action === 'ban';
  const record = {
    action: audit.action,
    actor: audit.actor,
    reason: audit.reason,
    target_kind: 'account',
    target: audit.account,
    changes: { banned: [!banned, banned] },
    op_id: audit.op_id,
    at: audit.at,
  };
  return [
    createItem({ ...auditLogKey(audit.at, audit.op_id), ...record }),
    createItem({ ...auditTargetKey(accountKey(audit.account).PK, audit.at, audit.op_id), ...record }),
  ];
}
