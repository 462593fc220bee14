// POST /v1/stories/{slug}/appeals: appeal_moderation (your own held story; one appeal per hold).
import { APPEAL_MODERATION_TOOL, appealModerationInputSchema, appealModerationOutputSchema } from '../../app/appeal-moderation.contract.ts';
import { signedIn } from '../../app/caller/signed-in.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const appealModerationRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/appeals',
  operationId: 'appealModeration',
  summary: `Appeal the hold of your story (${APPEAL_MODERATION_TOOL})`,
  description:
    'Asks the operator to review your story that is held for review, with a note of at most 280 characters (docs/moderation.md). One appeal per hold: the same note again answers the first appeal; another note is 409 `conflict` (details.reason `already_appealed`); a story not held is 409 `conflict` (details.reason `not_held`).',
  jsonBody: appealModerationInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'Your appeal, and the hold it is about.', schema: appealModerationOutputSchema },
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
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const { appealModeration } = await import('../../app/appeal-moderation.ts');
    return writeAnswer(c, await appealModeration(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});
