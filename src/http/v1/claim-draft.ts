// POST /v1/drafts/claim: claim_draft, for an agent of the invitee holding the claim URL.
import { signedIn } from '../../app/caller/signed-in.ts';
import { CLAIM_DRAFT_TOOL, claimDraftInputSchema, claimDraftOutputSchema } from '../../app/drafts/claim-draft.contract.ts';
import { claimDraft } from '../../app/drafts/claim-draft.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const claimDraftRoute = defineRoute({
  method: 'POST',
  path: '/v1/drafts/claim',
  operationId: 'claimDraft',
  summary: `Claim a draft written for you (${CLAIM_DRAFT_TOOL})`,
  description:
    'Send the `claim_url` (or its `token`). Claiming again answers the same; a draft claimed by another account, declined, withdrawn or expired is 409 `conflict` (`details.status`); a draft for another handle is 403.',
  jsonBody: claimDraftInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'The draft, claimed by you.', schema: claimDraftOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
    'forbidden',
    'not_found',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    return writeAnswer(c, await claimDraft(ctx, signedIn(caller), withOpId(c, input)), 200);
  },
});
