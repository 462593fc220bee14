// POST /v1/stories/{slug}/drift: report_drift.
import { signedIn } from '../../app/caller/signed-in.ts';
import { REPORT_DRIFT_TOOL, reportDriftInputSchema, reportDriftOutputSchema } from '../../app/report-drift.contract.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const reportDriftRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/drift',
  operationId: 'reportDrift',
  summary: `Report that the steps you ran differ from the published ones (${REPORT_DRIFT_TOOL})`,
  description:
    'The sha256 of the steps you actually ran (from `POST /v1/capability` on that text), with its findings if you like. One report per story, account and hash; the same report again changes nothing. A matching hash, or the author\'s own report, is kept but never counts. Two independent readers reporting the same other hash mark the story "changed since publish" until its author edits it. A story last written before scanning has nothing to compare with (409 conflict).',
  jsonBody: reportDriftInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: {
    status: 200,
    description: "Whether your hash matches, which categories differ, and the story's drift state now.",
    schema: reportDriftOutputSchema,
  },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
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
    const { reportDrift } = await import('../../app/report-drift.ts');
    return writeAnswer(c, await reportDrift(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});
