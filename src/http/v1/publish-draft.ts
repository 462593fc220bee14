// POST /v1/drafts/{id}/publish: publish_draft, by the claimer.
import { signedIn } from '../../app/caller/signed-in.ts';
import { PUBLISH_DRAFT_TOOL, publishDraftInputSchema, publishDraftOutputSchema } from '../../app/drafts/publish-draft.contract.ts';
import { withPathDraftId } from './draft-path.ts';
import { etagOf, jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const publishDraftRoute = defineRoute({
  method: 'POST',
  path: '/v1/drafts/:id/publish',
  operationId: 'publishDraft',
  summary: `Publish a draft you claimed (${PUBLISH_DRAFT_TOOL})`,
  description:
    'Publishes the claimed draft as your story, through the same rules as POST /v1/stories; `markdown` is your edited version (leave it out to publish it as drafted). The story credits the drafter (`drafted_by`). Publishing again answers the same story; 201 at revision 1.',
  jsonBody: publishDraftInputSchema.omit({ draft_id: true }),
  headers: ['Idempotency-Key'],
  success: { status: 201, description: 'The story as stored.', schema: publishDraftOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'not_found',
    'slug_taken',
    'duplicate_content',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx, search }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    // Loaded on first use, not at a cold start (test/unit/infra/lorebook-stack/bundled.test.ts bounds what the http function loads).
    const { publishDraft } = await import('../../app/drafts/publish-draft.ts');
    const outcome = await publishDraft(ctx, signedIn(caller), withPathDraftId(c, withOpId(c, input)), search);
    search.invalidate(outcome.slug);
    return writeAnswer(c, outcome, outcome.revision === 1 ? 201 : 200, {
      ETag: etagOf(outcome.revision),
      Location: `/v1/stories/${outcome.slug}`,
    });
  },
});
