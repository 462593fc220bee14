// list_notifications' contract: its name, its input and its answer (a page of the inbox). MCP's
// tool and GET /v1/notifications use exactly these.
import { z } from 'zod';
import { type Outcome, replayedField } from '../contract/replayed.ts';

export const LIST_NOTIFICATIONS_TOOL = 'list_notifications';

/** `N#<event time>#<16 hex>`, as notification-items makes them. */
export const NOTIFICATION_ID = /^N#[^#\s]{1,64}#[0-9a-f]{16}$/;
export const notificationIdSchema = z
  .string()
  .regex(NOTIFICATION_ID, 'Not a notification id: pass an `id` exactly as list_notifications returned it.');

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

export const listNotificationsInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Notifications per page, 1–${MAX_PAGE} (default ${DEFAULT_PAGE}).`),
  cursor: z.string().optional().describe('The cursor of the previous page, to read older notifications.'),
  unread_only: z.boolean().optional().describe('Only notifications not marked read yet.'),
});

export type ListNotificationsInput = z.input<typeof listNotificationsInputSchema>;

const notificationViewSchema = z.object({
  id: z.string().describe('The notification key: pass it to mark_notifications_read.'),
  kind: z.string(),
  story: z.string().describe('The slug of the story it is about.'),
  story_title: z.string(),
  actor_handle: z.string(),
  text: z.string(),
  at: z.string(),
  read: z.boolean(),
});

export type NotificationView = z.output<typeof notificationViewSchema>;

export const listNotificationsOutputSchema = z.object({
  notifications: z.array(notificationViewSchema),
  cursor: z.string().optional().describe('Present when older notifications may follow: pass it back as `cursor`.'),
  replayed: replayedField,
});

export type NotificationPage = Outcome<typeof listNotificationsOutputSchema>;
