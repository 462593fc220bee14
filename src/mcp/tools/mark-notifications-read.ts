// mark_notifications_read: explicit ids or up_to, never "all" (src/app/mark-notifications-read.ts).
import { signedIn } from '../../app/caller/signed-in.ts';
import {
  MARK_READ_TOOL,
  markNotificationsReadInputSchema,
  markNotificationsReadOutputSchema,
} from '../../app/mark-notifications-read.contract.ts';
import { markNotificationsRead } from '../../app/mark-notifications-read.ts';
import { defineTool } from '../tool.ts';

export const markNotificationsReadTool = defineTool({
  name: MARK_READ_TOOL,
  title: 'Mark notifications read',
  description: [
    'Mark notifications you have shown your user as read. Needs a token.',
    'Send exactly one of `ids` or `up_to` (keys from list_notifications); there is no "mark all". Marking what is already read changes nothing and answers the same. With up_to, `more: true` means call again with up_to = next_up_to.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for notifications your user has not seen.',
  ].join('\n'),
  inputSchema: markNotificationsReadInputSchema,
  outputSchema: markNotificationsReadOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => markNotificationsRead(ctx, signedIn(caller), args),
});
