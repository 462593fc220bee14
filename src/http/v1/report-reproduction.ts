// POST /v1/stories/{slug}/reproductions: report_reproduction; /reproduced is worklore's name for it.
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  REPORT_REPRODUCTION_TOOL,
  reportReproductionInputSchema,
  reportReproductionOutputSchema,
} from '../../app/report-reproduction.contract.ts';
import { reportReproduction } from '../../app/report-reproduction.ts';
import { jsonBody, queryInput, withOpId, withPathSlug, writeAnswer } from './request.ts';
import { aliasRoute, defineRoute } from './route.ts';

export const reportReproductionRoute = defineRoute({
  method: 'POST',
  path: '/v1/stories/:slug/reproductions',
  operationId: 'reportReproduction',
  summary: `Report how reproducing a story went (${REPORT_REPRODUCTION_TOOL})`,
  description:
    'One report per story and account: the same report again changes nothing; a different result replaces yours and moves one count. The author is notified; your report on your own story is kept but not counted.',
  jsonBody: reportReproductionInputSchema.omit({ slug: true }),
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'Your report and the counts now.', schema: reportReproductionOutputSchema },
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
    return writeAnswer(c, await reportReproduction(ctx, signedIn(caller), withPathSlug(c, withOpId(c, input))), 200);
  },
});

export const reportReproducedRoute = aliasRoute(reportReproductionRoute, {
  path: '/v1/stories/:slug/reproduced',
  operationId: 'reportReproduced',
  origin: "worklore's name for",
});
