// DELETE /v1/account: delete_account (design.md#account-deletion). No MCP tool: see access-rule.ts.
import { DELETE_ACCOUNT, deleteAccountInputSchema, deleteAccountOutputSchema } from '../../app/account/delete-account.contract.ts';
import { signedIn } from '../../app/caller/signed-in.ts';
import { jsonBody, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const deleteAccountRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/account',
  operationId: 'deleteAccount',
  summary: `Delete your account and everything it wrote (${DELETE_ACCOUNT})`,
  description:
    '`{"confirm": "<your current handle>"}`. Answers 202 at once: from that moment every token, web session and refresh token of the account is refused (401), and bounded background steps delete its stories (their pages answer 410, their Bluesky posts are deleted), withdraw its reproductions, checks and drift reports from other stories\' counts, and delete its notifications, drafts, images, tokens and sessions. The same call again (with the same token) answers the same 202 and deletes nothing twice. Signing in again later starts a new, empty account.',
  jsonBody: deleteAccountInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 202, description: 'The deletion is accepted and under way.', schema: deleteAccountOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
    'forbidden',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const outcome = await (await import('../../app/account/delete-account.ts')).deleteAccount(
      ctx,
      signedIn(caller),
      withOpId(c, await jsonBody(c)),
    );
    return writeAnswer(c, outcome, 202);
  },
});
