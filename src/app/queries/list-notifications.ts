// list_notifications — the caller's inbox, newest first, one page at a time. The cursor is the
// id of the last notification shown (base64url), checked on the way in: it only ever names a
// position in the caller's own inbox.

import { validationFailed } from '../../domain/errors.ts';
import { revealForbiddenChars } from '../../domain/text-controls.ts';
import type { StoredItem } from '../../store/actions.ts';
import { queryInbox } from '../../store/story/inbox-query.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import {
  DEFAULT_PAGE,
  LIST_NOTIFICATIONS_TOOL,
  listNotificationsInputSchema,
  NOTIFICATION_ID,
  type NotificationPage,
  type NotificationView,
} from './list-notifications.contract.ts';

/** Read notifications are skipped by a filter after DynamoDB's Limit, so unread pages look further per round. */
const UNREAD_EVALUATE_PER_ROUND = 200;

export async function listNotifications(ctx: AppContext, caller: Caller, raw: unknown): Promise<NotificationPage> {
  const input = parseInput(listNotificationsInputSchema, raw ?? {}, LIST_NOTIFICATIONS_TOOL);
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
    story_title: revealForbiddenChars(String(item.story_title)),
    actor_handle: String(item.actor_handle),
    text: revealForbiddenChars(String(item.text)),
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
