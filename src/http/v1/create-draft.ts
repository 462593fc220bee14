// POST /v1/drafts: draft_story_for.
import { signedIn } from '../../app/caller/signed-in.ts';
import { DRAFT_STORY_FOR_TOOL, draftStoryForInputSchema, draftStoryForOutputSchema } from '../../app/drafts/draft-story-for.contract.ts';
import { DRAFT_KEY_SHAPE } from '../../domain/draft/claim-token.ts';
import { validationFailed } from '../../domain/errors.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const createDraftRoute = defineRoute({
  method: 'POST',
  path: '/v1/drafts',
  operationId: 'createDraft',
  summary: `Draft a story for someone else (${DRAFT_STORY_FOR_TOOL})`,
  description:
    "Write the story for the person you helped: `markdown` must be a publishable story. The answer carries the single-use `claim_url` (valid 30 days, shown only here: lorebook keeps its hash). The draft needs a key: the body's `draft_key`, or else the `Idempotency-Key` header (the standard way to name a write; a UUID fits both). A repeat with the same key answers the same draft and claim URL (`Idempotent-Replayed: true`). At most 20 drafts per account per UTC day (429).",
  jsonBody: draftStoryForInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 201, description: 'The draft and its claim URL.', schema: draftStoryForOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'payload_too_large',
    'unauthenticated',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const input = withDraftKeyFromHeader(c.req.header('idempotency-key'), { ...queryInput(c, {}), ...(await jsonBody(c)) });
    // Loaded on first use, not at a cold start (what the http function loads at a cold start is
    // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
    const { draftStoryFor } = await import('../../app/drafts/draft-story-for.ts');
    const outcome = await draftStoryFor(ctx, signedIn(caller), withOpId(c, input));
    return writeAnswer(c, outcome, 201, { 'Cache-Control': 'no-store', Location: `/v1/drafts?draft_id=${outcome.draft.id}` });
  },
});

/**
 * A body without `draft_key` takes the `Idempotency-Key` header as the draft's key, so a client that
 * names its writes the standard way needs nothing lorebook-specific; a body key wins when both come.
 */
export function withDraftKeyFromHeader(header: string | undefined, input: Record<string, unknown>): Record<string, unknown> {
  if (header === undefined || input.draft_key !== undefined) return input;
  if (!DRAFT_KEY_SHAPE.test(header)) {
    throw validationFailed('The Idempotency-Key header cannot serve as the draft key.', {
      'Idempotency-Key': 'Use 16 to 128 characters from A-Z a-z 0-9 . _ : -, e.g. a UUID, or send draft_key in the body.',
    });
  }
  return { ...input, draft_key: header };
}
