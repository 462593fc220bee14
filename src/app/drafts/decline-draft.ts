// decline_draft — the invitee, holding the claim URL, says no (docs/design.md#drafts): open →
// declined, conditioned on `open`. Declining a declined draft again answers the same and writes
// nothing; a draft already claimed, withdrawn or expired is a typed conflict.
import { fingerprint } from '../../domain/fingerprint.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { closeDraftAction, draftKey, statusNow, toDraft } from '../../store/draft/draft-items.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { DECLINE_DRAFT_TOOL, declineDraftInputSchema } from './decline-draft.contract.ts';
import { type DraftOutcome, draftAnswer, type StoredDraftChange } from './draft-outcome.ts';
import { draftIdOfClaim, unknownClaimLink } from './draft-reference.ts';
import { statusStill } from './draft-status-guard.ts';
import { draftRecord } from './draft-view.ts';
import { draftNotOpen, mayActAsInvitee } from './invitee-rules.ts';

export async function declineDraft(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DraftOutcome>> {
  const input = await parseWriteInput(declineDraftInputSchema, raw, DECLINE_DRAFT_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const id = draftIdOfClaim(input);
  const key = draftKey(id);
  const stored = await writeOnce<StoredDraftChange>(ctx, {
    tool: DECLINE_DRAFT_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(DECLINE_DRAFT_TOOL, { draft: id }),
    reads: [key],
    plan(read, { now }): WritePlan<StoredDraftChange> {
      const item = pick(read, key);
      if (item === undefined) throw unknownClaimLink();
      const draft = toDraft(item);
      mayActAsInvitee(draft, caller, 'decline');
      if (draft.status === 'declined')
        return { outcome: { draft: draftRecord(draft) }, actions: [], guards: [checkItem(key, statusStill('declined'))] };
      const status = statusNow(draft, now);
      if (status !== 'open') throw draftNotOpen(status, 'declined');
      const at = new Date(now).toISOString();
      return {
        outcome: { draft: draftRecord({ ...draft, status: 'declined', closed_at: at }) },
        actions: [closeDraftAction(draft, 'declined', at)],
        guards: [],
      };
    },
  });
  return draftAnswer(ctx, stored);
}
