// mark_notifications_read: explicit ids or up_to, never "all" (src/app/mark-notifications-read.ts).
import { markNotificationsRead, markNotificationsReadInputSchema } from '../../app/mark-notifications-read.ts';
import { markedReadSchema } from '../outputs.ts';
import { defineTool, describedObject, OP_ID_DESCRIPTION, signedIn } from '../tool.ts';

export const markNotificationsReadToolInputSchema = describedObject(markNotificationsReadInputSchema.shape, {
  ids: 'The keys: ids of notifications you have seen (1–99), exactly as list_notifications returned them.',
  up_to: 'Or a key: the id of the newest notification you have seen; it and every older unread one are marked read (up to 99 per call).',
  op_id: OP_ID_DESCRIPTION,
});

export const markNotificationsReadTool = defineTool({
  name: 'mark_notifications_read',
  title: 'Mark notifications read',
  description: [
    'Mark notifications you have shown your user as read. Needs a token.',
    'Send exactly one of `ids` or `up_to` (keys from list_notifications); there is no "mark all". Marking what is already read changes nothing and answers the same. With up_to, `more: true` means call again with up_to = next_up_to.',
    '`op_id` is only for apps replaying queued requests; a model must not invent one.',
    'Do not call it for notifications your user has not seen.',
  ].join('\n'),
  inputSchema: markNotificationsReadToolInputSchema,
  outputSchema: markedReadSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ ctx }, caller, args) => markNotificationsRead(ctx, signedIn(caller), args),
});
