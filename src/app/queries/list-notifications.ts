// list_notifications — the caller's inbox, newest first, one page at a time. The cursor is the
// id of the last notification shown (base64url), checked on the way in: it only ever names a
// position in the caller's own inbox.
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import type { StoredItem } from '../../store/actions.ts';
import { queryInbox } from '../../store/inbox-query.ts';
import type { AppContext, Caller } from '../app-context.ts';
import { parseInput } from '../parse-input.ts';

/** `N#<event time>#<16 hex>`, as notification-items makes them. */
export const NOTIFICATION_ID = /^N#[^#\s]{1,64}#[0-9a-f]{16}$/;
export const notificationIdSchema = z.string().regex(NOTIFICATION_ID, 'Not a notification id: pass an `id` exactly as list_notifications returned it.');

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;
/** Read notifications are skipped by a filter after DynamoDB's Limit, so unread pages look further per round. */
const UNREAD_EVALUATE_PER_ROUND = 200;

export const listNotificationsInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Notifications per page, 1–${MAX_PAGE} (default ${DEFAULT_PAGE}).`),
  cursor: z.string().optional().describe('The cursor of the previous page, to read older notifications.'),
  unread_only: z.boolean().optional().describe('Only notifications not marked read yet.'),
});

export type ListNotificationsInput = z.input<typeof listNotificationsInputSchema>;

export interface NotificationView {
  id: string;
  kind: string;
  story: string;
  story_title: string;
  actor_handle: string;
  text: string;
  at: string;
  read: boolean;
}

export interface NotificationPage {
  notifications: NotificationView[];
  /** Present when older notifications may follow: pass it back as `cursor`. */
  cursor?: string;
}

export async function listNotifications(ctx: AppContext, caller: Caller, raw: unknown): Promise<NotificationPage> {
  const input = parseInput(listNotificationsInputSchema, raw ?? {}, 'list_notifications');
  const unreadOnly = input.unread_only ?? false;
  const page = await queryInbox(ctx.store, {
    account: caller.account,
    limit: input.limit ?? DEFAULT_PAGE,
    after: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
    unreadOnly,
    ...(unreadOnly ? { evaluatePerRound: UNREAD_EVALUATE_PER_ROUND } : {}),
  });
  return {
    notifications: page.items.map(presentNotification),
    ...(page.next === undefined ? {} : { cursor: encodeCursor(page.next) }),
  };
}

export function presentNotification(item: StoredItem): NotificationView {
  return {
    id: item.SK,
    kind: String(item.kind),
    story: String(item.story),
    story_title: String(item.story_title),
    actor_handle: String(item.actor_handle),
    text: String(item.text),
    at: String(item.at),
    read: item.read === true,
  };
}

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  // Re-encoding must give the cursor back: base64url decoding alone forgives stray characters.
  if (encodeCursor(id) !== cursor || !NOTIFICATION_ID.test(id)) {
    throw validationFailed('The cursor is not one list_notifications gave out.', {
      cursor: 'Pass the cursor of the previous page unchanged, or leave it out to start from the newest notification.',
    });
  }
  return id;
}
