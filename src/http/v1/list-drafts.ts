// GET /v1/drafts: list_drafts.
import { signedIn } from '../../app/caller/signed-in.ts';
import { LIST_DRAFTS_TOOL, listDraftsInputSchema, listDraftsOutputSchema } from '../../app/drafts/list-drafts.contract.ts';
import { listDrafts } from '../../app/drafts/list-drafts.ts';
import { queryInput } from './request.ts';
import { defineRoute } from './route.ts';

const fields = listDraftsInputSchema.shape;
const params = {
  draft_id: { field: 'draft_id', kind: 'string', schema: fields.draft_id },
  limit: { field: 'limit', kind: 'integer', schema: fields.limit },
  cursor: { field: 'cursor', kind: 'string', schema: fields.cursor },
} as const;

export const listDraftsRoute = defineRoute({
  method: 'GET',
  path: '/v1/drafts',
  operationId: 'listDrafts',
  summary: `List your drafts (${LIST_DRAFTS_TOOL})`,
  description:
    'The drafts you wrote for others and the ones you claimed, newest first, with their status; `draft_id` answers that one draft with its markdown.',
  query: params,
  success: { status: 200, description: 'A page of drafts.', schema: listDraftsOutputSchema },
  errors: ['validation_failed', 'unauthenticated', 'not_found', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx }) {
    return c.json(await listDrafts(ctx, signedIn(caller), queryInput(c, params)), 200, { 'Cache-Control': 'private, no-store' });
  },
});
