// POST /v1/notifications/read: mark_notifications_read.
import { markNotificationsRead } from '../../app/mark-notifications-read.ts';
import { markedReadSchema } from '../../mcp/outputs.ts';
import { signedIn } from '../../mcp/tool.ts';
import { markNotificationsReadToolInputSchema } from '../../mcp/tools/mark-notifications-read.ts';
import { defineRoute } from './route.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';

export const markNotificationsReadRoute = defineRoute({
  method: 'POST',
  path: '/v1/notifications/read',
  operationId: 'markNotificationsRead',
  summary: 'Mark notifications read (mark_notifications_read)',
  description: 'Exactly one of `ids` or `up_to`; there is no "mark all". Marking what is already read changes nothing.',
  jsonBody: markNotificationsReadToolInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'What is read now.', schema: markedReadSchema },
  errors: ['validation_failed', 'unauthenticated', 'conflict', 'idempotency_key_reused', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    return writeAnswer(c, await markNotificationsRead(ctx, signedIn(caller), withOpId(c, input)), 200);
  },
});
