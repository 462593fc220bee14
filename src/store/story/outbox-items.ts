// Outbox events: side effects too large for the write's own transaction (a correction notifying
// hundreds of reproducers) are recorded as one item IN that transaction, and a dispatcher turns
// them into notifications later. The event id is deterministic, so a redelivered write cannot
// record a second event.
import type { StoredItem } from '../actions.ts';
import { outboxKey } from '../keys.ts';

export interface CorrectionEvent {
  kind: 'correction';
  slug: string;
  title: string;
  revision: number;
  note: string;
  actor: string;
  actor_handle: string;
  at: string;
  /** Reproducers at the moment of the correction: who is told. */
  recipients: string[];
}

/** Who a correction tells: each reproducer once, never the author of the correction. */
export function correctionRecipients(event: Pick<CorrectionEvent, 'recipients' | 'actor'>): string[] {
  return [...new Set(event.recipients)].filter((recipient) => recipient !== event.actor);
}

export const correctionEventId = (slug: string, revision: number): string => `correction#${slug}#${revision}`;

export function correctionOutboxItem(event: CorrectionEvent): StoredItem {
  return { ...outboxKey(correctionEventId(event.slug, event.revision)), ...event };
}
