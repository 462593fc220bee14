// DELETE /v1/stories/{slug}/reproductions: withdraw_reproduction (yours; there is one per account).
import { signedIn } from '../../app/caller/signed-in.ts';
import { WITHDRAW_REPRODUCTION_TOOL, withdrawReproductionOutputSchema } from '../../app/withdraw-reproduction.contract.ts';
import { withdrawReproduction } from '../../app/withdraw-reproduction.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const withdrawReproductionRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/stories/:slug/reproductions',
  operationId: 'withdrawReproduction',
  summary: `Withdraw your reproduction report (${WITHDRAW_REPRODUCTION_TOOL})`,
  description:
    'Deletes your report and moves its count back. Withdrawing again, or without a report, answers the same and changes nothing. No body.',
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'The counts now.', schema: withdrawReproductionOutputSchema },
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
    return writeAnswer(c, await withdrawReproduction(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});
