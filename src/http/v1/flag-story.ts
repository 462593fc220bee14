// POST /v1/stories/{slug}/flags: flag_story (yours; there is one per account).
import { signedIn } from '../../app/caller/signed-in.ts';
import { FLAG_STORY_TOOL, flagStoryInputSchema, flagStoryOutputSchema } from '../../app/flag-story.contract.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const flagStoryRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/flags',
  operationId: 'flagStory',
  summary: `Flag a story for review (${FLAG_STORY_TOOL})`,
  description:
    "Your report that someone else's story breaks the rules, with a reason (docs/moderation.md). A new flag replaces yours; the same flag again changes nothing. 403 on your own story; 409 `conflict` (details.reason `open_flag_limit`) past the open-flag limit.",
  jsonBody: flagStoryInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'Your flag, and whether it counts.', schema: flagStoryOutputSchema },
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
    const { flagStory } = await import('../../app/flag-story.ts');
    return writeAnswer(c, await flagStory(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});
