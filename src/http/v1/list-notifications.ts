// GET /v1/notifications: list_notifications.
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  LIST_NOTIFICATIONS_TOOL,
  listNotificationsInputSchema,
  listNotificationsOutputSchema,
} from '../../app/queries/list-notifications.contract.ts';
import { listNotifications } from '../../app/queries/list-notifications.ts';
import { queryInput } from './request.ts';
import { defineRoute } from './route.ts';

const fields = listNotificationsInputSchema.shape;
const params = {
  limit: { field: 'limit', kind: 'integer', schema: fields.limit },
  cursor: { field: 'cursor', kind: 'string', schema: fields.cursor },
  unread_only: { field: 'unread_only', kind: 'boolean', schema: fields.unread_only },
} as const;

export const listNotificationsRoute = defineRoute({
  method: 'GET',
  path: '/v1/notifications',
  operationId: 'listNotifications',
  summary: `List your notifications (${LIST_NOTIFICATIONS_TOOL})`,
  description: 'Your inbox, newest first. Listing marks nothing read.',
  query: params,
  success: { status: 200, description: 'A page of notifications.', schema: listNotificationsOutputSchema },
  errors: ['validation_failed', 'unauthenticated', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx }) {
    return c.json(await listNotifications(ctx, signedIn(caller), queryInput(c, params)), 200, { 'Cache-Control': 'private, no-store' });
  },
});
