// POST /v1/drafts/decline: decline_draft, by the invitee holding the claim URL.
import { signedIn } from '../../app/caller/signed-in.ts';
import { DECLINE_DRAFT_TOOL, declineDraftInputSchema, declineDraftOutputSchema } from '../../app/drafts/decline-draft.contract.ts';
import { declineDraft } from '../../app/drafts/decline-draft.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const declineDraftRoute = defineRoute({
  method: 'POST',
  path: '/v1/drafts/decline',
  operationId: 'declineDraft',
  summary: `Decline a draft written for you (${DECLINE_DRAFT_TOOL})`,
  description:
    'Send the `claim_url` (or its `token`): the claim URL is what proves the draft was for you, so it is the key rather than the draft id. Declining again answers the same; a draft already claimed, withdrawn or expired is 409 `conflict`.',
  jsonBody: declineDraftInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'The draft, declined.', schema: declineDraftOutputSchema },
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
    return writeAnswer(c, await declineDraft(ctx, signedIn(caller), withOpId(c, input)), 200);
  },
});
