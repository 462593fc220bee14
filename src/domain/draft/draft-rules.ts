// Drafts for someone else (docs/design.md#drafts): the statuses a draft moves through, the limits on
// writing them, and the status a reader sees — `expired` is never stored, it is an open draft
// whose claim deadline has passed, judged at read time against the store clock.

/** What is stored. `expired` is computed (draftStatusAt). */
export const STORED_DRAFT_STATUSES = ['open', 'claimed', 'published', 'declined', 'withdrawn'] as const;
export type StoredDraftStatus = (typeof STORED_DRAFT_STATUSES)[number];

export const DRAFT_STATUSES = [...STORED_DRAFT_STATUSES, 'expired'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/** How long a claim URL can be used after the draft is written. */
export const DRAFT_CLAIM_DAYS = 30;
/** How long an unclaimed draft stays listed (as `expired`) after its deadline, before the store's TTL removes it. */
export const DRAFT_KEPT_AFTER_DEADLINE_DAYS = 30;
/** Drafts one account may write per UTC day: a claim URL is an invitation to a stranger, so it is not free. */
export const MAX_DRAFTS_PER_DAY = 20;
/** The note to the invitee: a few sentences. */
export const MAX_INVITEE_NOTE_CHARS = 1000;

const DAY_SECONDS = 24 * 60 * 60;

export const claimDeadline = (createdAtSeconds: number): number => createdAtSeconds + DRAFT_CLAIM_DAYS * DAY_SECONDS;
export const openDraftExpiry = (claimUntilSeconds: number): number => claimUntilSeconds + DRAFT_KEPT_AFTER_DEADLINE_DAYS * DAY_SECONDS;

/** The status as the reader sees it at `nowSeconds`: an open draft past its deadline is expired. */
export function draftStatusAt(stored: StoredDraftStatus, claimUntilSeconds: number, nowSeconds: number): DraftStatus {
  return stored === 'open' && claimUntilSeconds <= nowSeconds ? 'expired' : stored;
}
