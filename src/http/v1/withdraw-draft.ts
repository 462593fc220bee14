// POST /v1/drafts/{id}/withdraw: withdraw_draft, by the drafter.
import { signedIn } from '../../app/caller/signed-in.ts';
import { WITHDRAW_DRAFT_TOOL, withdrawDraftInputSchema, withdrawDraftOutputSchema } from '../../app/drafts/withdraw-draft.contract.ts';
import { withdrawDraft } from '../../app/drafts/withdraw-draft.ts';
import { withPathDraftId } from './draft-path.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const withdrawDraftRoute = defineRoute({
  method: 'POST',
  path: '/v1/drafts/:id/withdraw',
  operationId: 'withdrawDraft',
  summary: `Withdraw a draft you wrote (${WITHDRAW_DRAFT_TOOL})`,
  description:
    "Takes back an open draft: its claim URL stops working. Withdrawing again answers the same; a claimed draft is 409 `conflict` (it is the claimer's now); a draft that is not yours is 404.",
  jsonBody: withdrawDraftInputSchema.omit({ draft_id: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'The draft, withdrawn.', schema: withdrawDraftOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
    'not_found',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    return writeAnswer(c, await withdrawDraft(ctx, signedIn(caller), withPathDraftId(c, withOpId(c, input))), 200);
  },
});
