// PUT /v1/stories/{slug}: edit_story, as JSON or text/markdown (kind, note, source as query or as
// worklore's X-Revision-* headers).
import { signedIn } from '../../app/caller/signed-in.ts';
import { EDIT_TOOL, editStoryInputSchema, editStoryOutputSchema } from '../../app/edit-story.contract.ts';
import { etagOf, markdownOrJsonBody, withIfMatch, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { withRevisionHeaders } from './revision-headers.ts';
import { defineRoute } from './route.ts';

const fields = editStoryInputSchema.shape;

const markdownQuery = {
  kind: { field: 'kind', kind: 'string', schema: fields.kind },
  note: { field: 'note', kind: 'string', schema: fields.note },
  source: { field: 'source', kind: 'string', schema: fields.source },
} as const;

export const editStoryRoute = defineRoute({
  method: 'PUT',
  path: '/v1/stories/:slug',
  operationId: 'editStory',
  summary: `Edit your story (${EDIT_TOOL})`,
  description:
    'The new whole story as JSON (`markdown`, `kind`, `note`, `source`) or as `text/markdown` with `?kind=&note=&source=` or the headers `X-Revision-Kind`, `X-Revision-Note`, `X-Revision-Source` (the names worklore uses). `If-Match: "<revision>"` (the ETag of GET) is the base revision: if the story moved past it the answer is 409 revision_conflict and nothing is overwritten. The same edit twice changes nothing.',
  jsonBody: editStoryInputSchema.omit({ slug: true }),
  markdownBody: 'The whole new story; kind (and note for a correction) go in the query.',
  query: markdownQuery,
  headers: ['Idempotency-Key', 'If-Match', 'X-Revision-Kind', 'X-Revision-Note', 'X-Revision-Source'],
  success: {
    status: 200,
    description: 'The story as stored, and how many reproducers the edit tells (`notified`).',
    schema: editStoryOutputSchema,
  },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'forbidden',
    'not_found',
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
    const { editStory } = await import('../../app/edit-story.ts');
    const outcome = await editStory(ctx, signedIn(caller), withPathSlug(c, withIfMatch(c, withOpId(c, withRevisionHeaders(c, input)))));
    search.invalidate(outcome.slug);
    return writeAnswer(c, outcome, 200, { ETag: etagOf(outcome.revision) });
  },
});
