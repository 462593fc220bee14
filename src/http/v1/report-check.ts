// POST /v1/stories/{slug}/checks: report_check; /checked is worklore's name for it.
import { signedIn } from '../../app/caller/signed-in.ts';
import { REPORT_CHECK_TOOL, reportCheckInputSchema, reportCheckOutputSchema } from '../../app/report-check.contract.ts';
import { reportCheck } from '../../app/report-check.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { aliasRoute, defineRoute } from './route.ts';

export const reportCheckRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/checks',
  operationId: 'reportCheck',
  summary: `Report a story's check result (${REPORT_CHECK_TOOL})`,
  description:
    'Your answer to the story\'s read-only "Check if this applies to you" section: `has_problem` or `no_problem`. The latest answer replaces yours and moves one count; the same answer again changes nothing. Only stories with a check (409 conflict otherwise).',
  jsonBody: reportCheckInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'Your answer and the check counts now.', schema: reportCheckOutputSchema },
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
    return writeAnswer(c, await reportCheck(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});

export const reportCheckedRoute = aliasRoute(reportCheckRoute, {
  path: '/v1/stories/:slug/checked',
  operationId: 'reportChecked',
  origin: "worklore's name for",
});
