// The audit record of a ban or an unban (docs/moderation.md): one in the operator's log
// (`MODLOG`) and its copy under the account, written in the action's own transaction.
import type { PutAction } from '../../../store/actions.ts';
import { accountKey } from '../../../store/keys.ts';
import { auditRecord } from '../audit-record.ts';

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
  return auditRecord(
    {
      action: audit.action,
      actor: audit.actor,
      reason: audit.reason,
      target_kind: 'account',
      target: audit.account,
      changes: { banned: [!banned, banned] },
      op_id: audit.op_id,
      at: audit.at,
    },
    accountKey(audit.account).PK,
  );
}
