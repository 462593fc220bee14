// The operators' review queue (docs/moderation.md, design.md#operators-audit): one item per story waiting for a
// person, PK `MODQUEUE`, SK `<at>#<slug>` so one Query lists the newest first. A hold creates it;
// an appeal moves it to the appeal's time (the entry at the hold's time goes in the same
// transaction); a restore deletes it. The key comes from the state on META (its `since`, its
// appeal's `at`), so every writer knows which entry to move without reading the queue.
import type { DeleteAction, PutAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import type { ModerationState } from '../story/moderation-state.ts';

export const REVIEW_QUEUE_PARTITION = 'MODQUEUE';
export const REVIEW_KINDS = ['held', 'appeal'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const reviewQueueKey = (at: string, slug: string): ItemKey => ({ PK: REVIEW_QUEUE_PARTITION, SK: `${at}#${slug}` });

export interface ReviewEntry {
  kind: ReviewKind;
  slug: string;
  title: string;
  author: string;
  /** When it joined the queue: the hold's time, or the appeal's. */
  at: string;
  /** The hold it is about (META's moderation.since). */
  since: string;
  reasons: string[];
  flags: number;
  /** The operator's reason, when an operator held it. */
  reason?: string;
  /** The author's appeal note (kind appeal). */
  note?: string;
}

export function joinReviewQueue(entry: ReviewEntry): PutAction {
  return createItem({ ...reviewQueueKey(entry.at, entry.slug), ...entry });
}

/** Where a held story's entry is now: at its appeal's time once appealed, else at the hold's. */
export function currentReviewKey(slug: string, moderation: ModerationState): ItemKey {
  return reviewQueueKey(moderation.appeal?.at ?? moderation.since, slug);
}

/** Off the queue; the key is derived from META as read, which the same transaction's META update guards. */
export function leaveReviewQueue(key: ItemKey): DeleteAction {
  return { Delete: { Key: key } };
}
