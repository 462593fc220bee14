// POST /v1/notifications/read: mark_notifications_read.
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  MARK_READ_TOOL,
  markNotificationsReadInputSchema,
  markNotificationsReadOutputSchema,
} from '../../app/mark-notifications-read.contract.ts';
import { markNotificationsRead } from '../../app/mark-notifications-read.ts';
import { jsonBody, queryInput, withOpId, writeAnswer } from './request.ts';
import { defineRoute } from './route.ts';

export const markNotificationsReadRoute = defineRoute({
  method: 'POST',
  path: '/v1/notifications/read',
  operationId: 'markNotificationsRead',
  summary: `Mark notifications read (${MARK_READ_TOOL})`,
  description: 'Exactly one of `ids` or `up_to`; there is no "mark all". Marking what is already read changes nothing.',
  jsonBody: markNotificationsReadInputSchema,
  headers: ['Idempotency-Key'],
  success: { status: 200, description: 'What is read now.', schema: markNotificationsReadOutputSchema },
  errors: [
    'validation_failed',
    'secret_detected',
    'unauthenticated',
    'conflict',
    'idempotency_key_reused',
    'rate_limited',
    'store_unavailable',
  ],
  async handle(c, caller, { ctx }) {
    const input = { ...queryInput(c, {}), ...(await jsonBody(c)) };
    return writeAnswer(c, await markNotificationsRead(ctx, signedIn(caller), withOpId(c, input)), 200);
  },
});
