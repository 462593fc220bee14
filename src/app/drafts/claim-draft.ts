// claim_draft — the invitee takes the draft written for them (docs/design.md#drafts): open →
// claimed, conditioned on `open`, so of two claims of one URL, or a claim and a withdrawal,
// exactly one lands and the other is re-planned into its typed refusal. The draft goes into the
// claimer's drafts (a list item) and the claimer's notification (kind `draft`), keyed by the
// draft alone, is created in the same transaction: once, whatever is retried.

import { fingerprint } from '../../domain/fingerprint.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { and } from '../../store/condition.ts';
import { claimDraftActions, type Draft, draftKey, statusNow, toDraft } from '../../store/draft/draft-items.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem, createItem } from '../../store/replace-by-key.ts';
import { notificationItem } from '../../store/story/notification-items.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { CLAIM_DRAFT_TOOL, claimDraftInputSchema } from './claim-draft.contract.ts';
import { type DraftOutcome, draftAnswer, type StoredDraftChange } from './draft-outcome.ts';
import { draftIdOfClaim, unknownClaimLink } from './draft-reference.ts';
import { draftRecord } from './draft-view.ts';
import { draftNotOpen, mayActAsInvitee } from './invitee-rules.ts';

export async function claimDraft(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DraftOutcome>> {
  const input = await parseWriteInput(claimDraftInputSchema, raw, CLAIM_DRAFT_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const id = draftIdOfClaim(input);
  const key = draftKey(id);
  const stored = await writeOnce<StoredDraftChange>(ctx, {
    tool: CLAIM_DRAFT_TOOL,
    caller,
    opId,
    // The draft, not the spelling of the link: a URL and its bare token are one claim.
    fingerprint: fingerprint(CLAIM_DRAFT_TOOL, { draft: id }),
    reads: [key],
    plan(read, { now }): WritePlan<StoredDraftChange> {
      const item = pick(read, key);
      if (item === undefined) throw unknownClaimLink();
      const draft = toDraft(item);
      if (draft.status === 'claimed' && draft.claimer === caller.account) {
        return { outcome: { draft: draftRecord(draft) }, actions: [], guards: [checkItem(key, claimedBy(caller.account))] };
      }
      mayActAsInvitee(draft, caller, 'claim');
      const status = statusNow(draft, now);
      if (status !== 'open') throw draftNotOpen(status, 'claimed');
      const at = new Date(now).toISOString();
      const claimed: Draft = { ...draft, status: 'claimed', claimer: caller.account, claimed_at: at };
      return {
        outcome: { draft: draftRecord(claimed) },
        actions: [...claimDraftActions(draft, caller.account, at), createItem(notificationItem(draftNotification(draft, caller)))],
        guards: [],
      };
    },
  });
  return draftAnswer(ctx, stored);
}

const claimedBy = (account: string) =>
  and(
    { expression: '#status = :claimed', names: { '#status': 'status' }, values: { ':claimed': 'claimed' } },
    { expression: '#claimer = :me', names: { '#claimer': 'claimer' }, values: { ':me': account } },
  );

/** Keyed by the draft (its creation time and id): only one claim can ever land, so it is created once. */
function draftNotification(draft: Draft, claimer: Caller) {
  return {
    recipient: claimer.account,
    kind: 'draft' as const,
    story: '',
    story_title: draft.title,
    actor: draft.drafter,
    actor_handle: draft.drafter_handle,
    text: `@${draft.drafter_handle} drafted "${draft.title}" for you. It is in your drafts: edit it if you like and publish it as yours with publish_draft (draft_id ${draft.id}).`,
    at: draft.created_at,
    discriminator: draft.id,
  };
}
