// Notification items. The key comes from the source event — its time and a deterministic id —
// so a redelivered event lands on the same key, and creating with attribute_not_exists neither
// duplicates the notification nor resets `read`.
import { createHash } from 'node:crypto';
import type { StoredItem } from '../actions.ts';
import { notificationKey } from '../keys.ts';

export type NotificationKind = 'reproduction' | 'correction' | 'answer' | 'drift' | 'draft' | 'moderation';

export interface NotificationEvent {
  recipient: string;
  kind: NotificationKind;
  story: string;
  story_title: string;
  actor: string;
  actor_handle: string;
  text: string;
  /** When the source event happened (ISO); the notification sorts by it. */
  at: string;
  /** What makes this event unique besides kind/story/actor/recipient, e.g. the result or revision. */
  discriminator: string;
}

/** `N#<event time>#<16 hex of a hash of the event>`: sortable by time, equal for equal events. */
export function notificationId(event: NotificationEvent): string {
  const digest = createHash('sha256')
    .update([event.kind, event.story, event.actor, event.recipient, event.at, event.discriminator].join('\u0000'))
    .digest('hex')
    .slice(0, 16);
  return `N#${event.at}#${digest}`;
}

export function notificationItem(event: NotificationEvent): StoredItem {
  const id = notificationId(event);
  return {
    ...notificationKey(event.recipient, id),
    id,
    kind: event.kind,
    story: event.story,
    story_title: event.story_title,
    actor: event.actor,
    actor_handle: event.actor_handle,
    text: event.text,
    at: event.at,
    read: false,
  };
}
