// The notification fan-out (docs/design.md#write-rules, "side effects ride on the write"). A correction to
// hundreds of reproducers does not fit in the edit's transaction, so the edit records one outbox
// event and this dispatcher turns it into one notification per recipient, then retires the event.
// Each notification is created with attribute_not_exists at a key derived from the event, so a
// second run, a concurrent run or a redelivered event neither duplicates one nor resets `read`.
import type { AppContext } from '../app/context/app-context.ts';
import { validationFailed } from '../domain/errors.ts';
import type { StoredItem } from '../store/actions.ts';
import { keyOf } from '../store/keys.ts';
import { createItem } from '../store/replace-by-key.ts';
import { writeAtomically } from '../store/run-write.ts';
import { notificationItem } from '../store/story/notification-items.ts';
import { type CorrectionEvent, correctionRecipients } from '../store/story/outbox-items.ts';
import { listOutboxEvents, retireOutboxEvent } from '../store/story/outbox-query.ts';
import { WriteCancelled } from '../store/write-cancelled.ts';
import { runBounded } from './run-bounded.ts';

/** Event ids of corrections start with this (outbox-items `correctionEventId`). */
export const CORRECTION_EVENT_PREFIX = 'correction#';
export const DEFAULT_EVENTS_PER_RUN = 25;
export const MAX_EVENTS_PER_RUN = 100;
/** Conditional puts in flight at once for one event. */
export const DELIVERY_CONCURRENCY = 16;

export interface DispatchOptions {
  /** Events handled in this run (1–100, default 25); the rest wait for the next run. */
  limit?: number;
}

export interface Delivery {
  notifications_created: number;
  /** Already delivered by an earlier or concurrent run: counted, never an error. */
  already_present: number;
}

export interface DispatchResult extends Delivery {
  events: number;
}

export async function dispatchNotifications(ctx: AppContext, options: DispatchOptions = {}): Promise<DispatchResult> {
  const limit = options.limit ?? DEFAULT_EVENTS_PER_RUN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS_PER_RUN) {
    throw validationFailed('The dispatch limit is out of range.', { limit: `Use a whole number from 1 to ${MAX_EVENTS_PER_RUN}.` });
  }
  const result: DispatchResult = { events: 0, notifications_created: 0, already_present: 0 };
  for (const item of await listOutboxEvents(ctx.store, CORRECTION_EVENT_PREFIX, limit)) {
    const delivery = await deliverCorrection(ctx, item);
    result.events += 1;
    result.notifications_created += delivery.notifications_created;
    result.already_present += delivery.already_present;
  }
  return result;
}

/** Delivers one stored correction event to every recipient, then retires it. */
export async function deliverCorrection(ctx: AppContext, item: StoredItem): Promise<Delivery> {
  const event = toCorrectionEvent(item);
  const recipients = correctionRecipients(event);
  const outcomes = await runBounded(recipients, DELIVERY_CONCURRENCY, async (recipient) => {
    try {
      await writeAtomically(ctx.store, [createItem(correctionNotification(event, recipient))]);
      return 'created' as const;
    } catch (error) {
      if (error instanceof WriteCancelled && error.hasConditionFailure) return 'present' as const;
      throw error;
    }
  });
  // Only once every recipient has it: a crash before this line re-delivers, harmlessly.
  await writeAtomically(ctx.store, [retireOutboxEvent(keyOf(item))]);
  const created = outcomes.filter((outcome) => outcome === 'created').length;
  return { notifications_created: created, already_present: outcomes.length - created };
}

export function correctionNotification(event: CorrectionEvent, recipient: string): StoredItem {
  return notificationItem({
    recipient,
    kind: 'correction',
    story: event.slug,
    story_title: event.title,
    actor: event.actor,
    actor_handle: event.actor_handle,
    text: `${event.actor_handle} corrected "${event.title}": ${event.note}`,
    at: event.at,
    discriminator: String(event.revision),
  });
}

function toCorrectionEvent(item: StoredItem): CorrectionEvent {
  const recipients = item.recipients instanceof Set ? [...(item.recipients as Set<unknown>)] : item.recipients;
  const strings = ['slug', 'title', 'note', 'actor', 'actor_handle', 'at'] as const;
  if (
    item.kind !== 'correction' ||
    typeof item.revision !== 'number' ||
    !Array.isArray(recipients) ||
    !recipients.every((recipient) => typeof recipient === 'string') ||
    !strings.every((field) => typeof item[field] === 'string')
  ) {
    throw new Error(`outbox event ${item.SK} is not a correction event`);
  }
  return { ...(item as unknown as CorrectionEvent), recipients: recipients as string[] };
}
