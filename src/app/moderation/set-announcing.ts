// The announcing switch (design.md#settings): LOREBOOK_ANNOUNCING as a runtime setting, turned off or on by
// an operator (`npm run settings -- set LOREBOOK_ANNOUNCING off`, and the moderation command's
// `announcing off|on`). Every process honours it within its settings cache period: while it is
// off nothing is posted to or deleted from Bluesky, and the announce queue keeps the work.
// A change writes its audit record (docs: the moderation log) in the same transaction.
import { validationFailed } from '../../domain/errors.ts';
import { normaliseText } from '../../domain/free-text.ts';
import { forbiddenCharProblem } from '../../domain/text-controls.ts';
import type { AppContext } from '../context/app-context.ts';
import type { CpuScope } from '../context/offloaded.ts';
import { refuseSecrets } from '../secrets/refuse-secrets.ts';
import { type SetSettingOutcome, setSetting } from '../settings/set-setting.ts';
import type { Replayed } from '../write/write-once.ts';
import { auditRecord } from './audit-record.ts';

export const ANNOUNCING_SETTING = 'LOREBOOK_ANNOUNCING';
export const MAX_REASON_CHARS = 500;

export interface SetAnnouncingInput {
  on: boolean;
  /** The operator, e.g. `operator:<os user name>`. */
  actor: string;
  reason: string;
  op_id: string;
}

export async function setAnnouncing(ctx: AppContext, input: SetAnnouncingInput): Promise<Replayed<SetSettingOutcome>> {
  const reason = await checkedReason(input.reason, ctx);
  const value = input.on ? 'on' : 'off';
  return setSetting(ctx, { name: ANNOUNCING_SETTING, value, actor: input.actor, op_id: input.op_id }, (outcome) =>
    auditRecord({
      action: 'announcing',
      actor: input.actor,
      reason,
      target_kind: 'site',
      target: 'announcing',
      changes: { announcing: [outcome.previous, value] },
      op_id: input.op_id,
      at: outcome.at,
    }),
  );
}

/** The reason goes through the same door as story text: no hidden characters, no secrets, bounded. */
async function checkedReason(text: string, scope: CpuScope): Promise<string> {
  const reason = normaliseText(text);
  if (reason === undefined) throw validationFailed('Say why, in a few words.', { reason: 'Give a reason (1 to 500 characters).' });
  if ([...reason].length > MAX_REASON_CHARS)
    throw validationFailed('The reason is too long.', { reason: `Keep the reason to ${MAX_REASON_CHARS} characters.` });
  const problem = forbiddenCharProblem(reason);
  if (problem !== undefined) throw validationFailed('The reason holds a character that is never stored.', { reason: problem });
  await refuseSecrets({ reason }, 'reason', scope);
  return reason;
}
