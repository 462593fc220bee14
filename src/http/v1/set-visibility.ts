// POST /v1/stories/{slug}/visibility: set_visibility.
import { signedIn } from '../../app/caller/signed-in.ts';
import { SET_VISIBILITY_TOOL, setVisibilityInputSchema, setVisibilityOutputSchema } from '../../app/set-visibility.contract.ts';
import { setVisibility } from '../../app/set-visibility.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const setVisibilityRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/visibility',
  operationId: 'setVisibility',
  summary: `Hide or unhide your story (${SET_VISIBILITY_TOOL})`,
  description:
    '`{"hidden": true}` hides the story from everyone but you; `false` shows it again. Nothing is deleted. The same call twice changes nothing.',
  jsonBody: setVisibilityInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'The visibility now.', schema: setVisibilityOutputSchema },
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
  async handle(c, caller, { ctx, search }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    const outcome = await setVisibility(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input)));
    search.invalidate(outcome.slug);
    return writeAnswer(c, outcome, 200);
  },
});
