// withdraw_draft — the drafter takes back a draft nobody claimed yet (docs/design.md#drafts): open →
// withdrawn, conditioned on `open`, so a claim and a withdrawal racing end with exactly one of
// them. A claimed draft is the claimer's now and cannot be withdrawn. Withdrawing again answers
// the same and writes nothing; someone else's draft answers as one that does not exist.
import { fingerprint } from '../../domain/fingerprint.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { closeDraftAction, draftKey, toDraft } from '../../store/draft/draft-items.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { type DraftOutcome, draftAnswer, type StoredDraftChange } from './draft-outcome.ts';
import { unknownDraft } from './draft-reference.ts';
import { statusStill } from './draft-status-guard.ts';
import { draftRecord } from './draft-view.ts';
import { draftNotOpen } from './invitee-rules.ts';
import { WITHDRAW_DRAFT_TOOL, withdrawDraftInputSchema } from './withdraw-draft.contract.ts';

export async function withdrawDraft(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DraftOutcome>> {
  const input = await parseWriteInput(withdrawDraftInputSchema, raw, WITHDRAW_DRAFT_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const key = draftKey(input.draft_id);
  const stored = await writeOnce<StoredDraftChange>(ctx, {
    tool: WITHDRAW_DRAFT_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(WITHDRAW_DRAFT_TOOL, { draft: input.draft_id }),
    reads: [key],
    plan(read, { now }): WritePlan<StoredDraftChange> {
      const item = pick(read, key);
      const draft = item === undefined ? undefined : toDraft(item);
      if (draft === undefined || draft.drafter !== caller.account) throw unknownDraft(input.draft_id);
      if (draft.status === 'withdrawn')
        return { outcome: { draft: draftRecord(draft) }, actions: [], guards: [checkItem(key, statusStill('withdrawn'))] };
      // An expired draft is still `open` as stored: withdrawing it only says so sooner.
      if (draft.status !== 'open') throw draftNotOpen(draft.status, 'withdrawn');
      const at = new Date(now).toISOString();
      return {
        outcome: { draft: draftRecord({ ...draft, status: 'withdrawn', closed_at: at }) },
        actions: [closeDraftAction(draft, 'withdrawn', at)],
        guards: [],
      };
    },
  });
  return draftAnswer(ctx, stored);
}
