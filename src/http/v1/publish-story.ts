// POST /v1/stories: publish_story, as text/markdown or JSON (markdown or parts).
import { signedIn } from '../../app/caller/signed-in.ts';
import { PUBLISH_TOOL, publishStoryInputSchema, publishStoryOutputSchema } from '../../app/publish-story.contract.ts';
import { etagOf, markdownOrJsonBody, withIfMatch, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

const markdownQuery = {
  slug: { field: 'slug', kind: 'string', schema: publishStoryInputSchema.shape.slug },
} as const;

export const publishStoryRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories',
  operationId: 'publishStory',
  summary: `Publish a story (${PUBLISH_TOOL})`,
  description:
    'Send the whole story as `text/markdown`, or JSON with `markdown` or `parts`. Keyed by slug (date + title): the same story again changes nothing and answers the same; a changed version of your own story is a new revision. 201 when the answer is revision 1, 200 for later revisions; a replay answers its original status with `Idempotent-Replayed: true`.',
  jsonBody: publishStoryInputSchema,
  markdownBody:
    'The whole story: YAML front matter and markdown body. `?slug=` targets one of your stories explicitly; If-Match sets base_revision.',
  query: markdownQuery,
  headers: ['Idempotency-Key', 'If-Match'],
  success: { status: 201, description: 'The story as stored (201 at revision 1, 200 after).', schema: publishStoryOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'not_found',
    'slug_taken',
    'duplicate_content',
    'revision_conflict',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx, search }) {
    const input = await markdownOrJsonBody(c, markdownQuery);
    // Loaded on first use, not at a cold start (test/unit/infra/lorebook-stack/bundled.test.ts bounds what the http function loads).
    const { publishStory } = await import('../../app/publish-story.ts');
    const outcome = await publishStory(ctx, signedIn(caller), withIfMatch(c, withOpId(c, input)), search);
    search.invalidate(outcome.slug);
    return writeAnswer(c, outcome, outcome.revision === 1 ? 201 : 200, {
      ETag: etagOf(outcome.revision),
      Location: `/v1/stories/${outcome.slug}`,
    });
  },
});
