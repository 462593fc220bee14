// list_notifications: the caller's inbox (src/app/queries/list-notifications.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  LIST_NOTIFICATIONS_TOOL,
  listNotificationsInputSchema,
  listNotificationsOutputSchema,
} from '../../app/queries/list-notifications.contract.ts';
import { listNotifications } from '../../app/queries/list-notifications.ts';
import { defineTool } from '../tool.ts';

export const listNotificationsTool = defineTool({
  name: LIST_NOTIFICATIONS_TOOL,
  title: 'List your notifications',
  description: [
    'Your inbox, newest first: someone reproduced one of your stories, or the author corrected a story you reproduced. Needs a token.',
    'Each `id` is the key mark_notifications_read takes. Page with `cursor`; `unread_only` skips what you already marked read.',
    'Read-only: listing marks nothing read. Do not call it in a loop to poll; check it when your user asks or at the start of a session.',
  ].join('\n'),
  inputSchema: listNotificationsInputSchema,
  outputSchema: listNotificationsOutputSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => listNotifications(ctx, signedIn(caller), args),
});
