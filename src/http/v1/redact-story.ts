// POST /v1/stories/{slug}/redact: redact_story, as JSON or text/markdown.
import { signedIn } from '../../app/caller/signed-in.ts';
import { REDACT_TOOL, redactStoryInputSchema, redactStoryOutputSchema } from '../../app/redact-story.contract.ts';
import { etagOf, markdownOrJsonBody, withIfMatch, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const redactStoryRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/redact',
  operationId: 'redactStory',
  summary: `Redact your story: a new text, and every earlier revision's markdown removed (${REDACT_TOOL})`,
  description:
    'The whole redacted story as JSON (`markdown`, `base_revision`) or as `text/markdown`. `If-Match: "<revision>"` (the ETag of GET) is the base revision: if the story moved past it the answer is 409 revision_conflict and nothing is changed. The text becomes a new revision of kind `redaction`; every earlier revision keeps its kind, time and note and loses its markdown; images only the removed text named, that the author uploaded, are deleted. The same text as now keeps it and only removes the earlier revisions. The same call twice changes nothing.',
  jsonBody: redactStoryInputSchema.omit({ slug: true }),
  markdownBody: 'The whole redacted story; the base revision goes in If-Match.',
  headers: ['Idempotency-Key', 'If-Match'],
  success: {
    status: 200,
    description: 'The story as stored, and `redacted_below`: every revision before it has no markdown.',
    schema: redactStoryOutputSchema,
  },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'forbidden',
    'not_found',
    'revision_conflict',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx, search }) {
    const input = await markdownOrJsonBody(c);
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const outcome = await (await import('../../app/redact-story.ts')).redactStory(
      ctx,
      signedIn(caller),
      withPathSlug(c, withIfMatch(c, withOpId(c, input))),
    );
    search.invalidate(outcome.slug);
    return writeAnswer(c, outcome, 200, { ETag: etagOf(outcome.revision) });
  },
});
