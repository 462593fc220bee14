// DELETE /v1/stories/{slug}/flags: unflag_story (yours; there is one per account).
import { signedIn } from '../../app/caller/signed-in.ts';
import { UNFLAG_STORY_TOOL, unflagStoryOutputSchema } from '../../app/unflag-story.contract.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const unflagStoryRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/stories/:slug/flags',
  operationId: 'unflagStory',
  summary: `Withdraw your flag on a story (${UNFLAG_STORY_TOOL})`,
  description:
    'Deletes your flag and frees one of your open flags. Withdrawing again, or without a flag, answers the same and changes nothing. A story already held for review stays held. No body.',
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'Your flag is gone.', schema: unflagStoryOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const { unflagStory } = await import('../../app/unflag-story.ts');
    return writeAnswer(c, await unflagStory(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});
