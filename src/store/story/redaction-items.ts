// A redaction's items (docs/design.md#redaction-export). The redaction's own transaction writes the new text
// and one outbox event `OUTBOX / redaction#<slug>#<below>`: "strip the markdown of every revision
// of <slug> below <below>". The event is the marker a crash cannot lose; whoever finishes it
// (the use case right after the commit, else the dispatcher or the sweeper) strips the revisions
// in transactions of at most 100 items, each also adding the images the stripped text named to
// the event's `images`, then deletes the images nothing else names, then retires the event.
import type { DeleteAction, StoredItem, UpdateAction } from '../actions.ts';
import { imageKey } from '../image/items.ts';
import { type ItemKey, outboxKey } from '../keys.ts';
import { KEY } from '../schema.ts';
import { updateItem } from '../update-item.ts';

export const REDACTION_EVENT_PREFIX = 'redaction#';

/** Below is zero-padded so one story's events sort by it. */
export const redactionEventId = (slug: string, below: number): string =>
  `${REDACTION_EVENT_PREFIX}${slug}#${String(below).padStart(6, '0')}`;

/** Every event of one story: the slug ends at the `#`, so one slug never matches another's events. */
export const redactionEventsOf = (slug: string): string => `${REDACTION_EVENT_PREFIX}${slug}#`;

export interface RedactionEvent {
  kind: 'redaction';
  slug: string;
  /** Every revision below this one loses its markdown. */
  below: number;
  /** The story's author: only images they uploaded may be deleted. */
  author: string;
  at: string;
  /** The sha256 of every lorebook image the stripped texts named (grows as batches are stripped). */
  images: string[];
}

export function redactionOutboxItem(event: Omit<RedactionEvent, 'images'>): StoredItem {
  return { ...outboxKey(redactionEventId(event.slug, event.below)), ...event };
}

export function toRedactionEvent(item: StoredItem): RedactionEvent {
  const images = item.images instanceof Set ? [...(item.images as Set<string>)].sort() : [];
  if (item.kind !== 'redaction' || typeof item.slug !== 'string' || typeof item.below !== 'number' || typeof item.author !== 'string') {
    throw new Error(`outbox event ${item.SK} is not a redaction event`);
  }
  return { kind: 'redaction', slug: item.slug, below: item.below, author: item.author, at: String(item.at), images };
}

/**
 * One revision without its markdown; kind, time, note, source, author and content hash stay. The
 * time is the event's, so a step run twice writes the same item.
 */
export function stripRevision(key: ItemKey, at: string): UpdateAction {
  return updateItem(key, { set: { redacted: true, redacted_at: at }, remove: ['markdown'] });
}

/** Adds the images a stripped batch named to the event, in the batch's transaction (a set: adding twice is once). */
export function noteRedactedImages(eventKey: ItemKey, sha256s: readonly string[]): UpdateAction {
  return updateItem(eventKey, { addClauses: ['#images :images'], names: { '#images': 'images' }, values: { ':images': new Set(sha256s) } });
}

/**
 * The event in a strip transaction that names no image, so a batch never lands once another run
 * has retired it: an UpdateItem (attribute_exists) setting what is already there, not a
 * ConditionCheck, which the sweeper is not granted.
 */
export function touchRedactionEvent(eventKey: ItemKey): UpdateAction {
  return updateItem(eventKey, { set: { kind: 'redaction' } });
}

/**
 * The image record of an image the author uploaded. Conditioned on the uploader, so a record is
 * only ever removed for the account that put it there; a second run finds nothing and is refused,
 * harmlessly.
 */
export function deleteAuthorsImageRecord(sha256: string, author: string): DeleteAction {
  const key = imageKey(sha256);
  return {
    Delete: {
      Key: { [KEY.partition]: key.PK, [KEY.sort]: key.SK },
      ConditionExpression: 'uploaded_by = :author',
      ExpressionAttributeValues: { ':author': author },
    },
  };
}
