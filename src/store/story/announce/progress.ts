// The announcer's bookkeeping on a story's META (docs/design.md#announcement), kept apart from the story's
// content in StoryMeta. It is read from the attributes the announcer writes (items.ts),
// stored flat on META as they always were; only `attempts` and `queued` are named differently.
import type { StoredItem } from '../../actions.ts';
import { announcePartition, skippedAnnouncePartition } from '../../keys.ts';
import { INDEXES } from '../../schema.ts';

export interface AnnounceProgress {
  /** The claim marker (`bsky_uri`): absent = owed, `pending` = claimed by `claim_id`, an at-uri = posted. */
  bsky_uri?: string;
  /** The announcer holding the claim, and since when (while `bsky_uri` is `pending`). */
  claim_id?: string;
  claimed_at?: string;
  /** Attempts counted since the last post was deleted (`announce_attempts`). */
  attempts?: number;
  /** The earliest time the announcement is tried again after a failure. */
  next_attempt_at?: string;
  last_error?: string;
  /** On the announce queue (GSI3): the Bluesky side of the story needs work. */
  queued: boolean;
  /** The post the document step claimed the marker from, while it holds it (design.md#standard-site). */
  claim_post?: string;
  /** The story's standard.site document (design.md#standard-site), once written: its at-uri, CID and the revision it shows. */
  doc_uri?: string;
  doc_cid?: string;
  doc_revision?: number;
  /** Attempts at writing the document counted since it was last written. */
  doc_attempts?: number;
  /** A new account's story waits until then before it may be posted, unless released earlier (design.md#new-accounts). */
  held_until?: string;
  /** Why it waits: `new_account`. */
  held_reason?: string;
  /** Set aside as too old when a sweep reached it (design.md#announcing-resumes): owed since then (ISO); only `sweep --backlog` posts it. */
  skipped_since?: string;
}

/** The META attributes that hold an AnnounceProgress (besides the queue's index attributes). */
export const ANNOUNCE_PROGRESS_ATTRIBUTES = [
  'bsky_uri',
  'claim_id',
  'claimed_at',
  'announce_attempts',
  'next_attempt_at',
  'last_error',
  'claim_post',
  'doc_uri',
  'doc_cid',
  'doc_revision',
  'doc_attempts',
  'held_until',
  'held_reason',
] as const;

/** The META attributes of the story's document (design.md#standard-site), removed together when it is deleted. */
export const DOCUMENT_ATTRIBUTES = ['doc_uri', 'doc_cid', 'doc_revision', 'doc_attempts'] as const;

export function toAnnounceProgress(item: StoredItem): AnnounceProgress {
  const queue = item[INDEXES.announce.partition];
  const progress: AnnounceProgress = { queued: queue === announcePartition };
  if (queue === skippedAnnouncePartition) progress.skipped_since = String(item[INDEXES.announce.sort]).split('#')[0] as string;
  if (item.bsky_uri !== undefined) progress.bsky_uri = item.bsky_uri as string;
  if (item.claim_id !== undefined) progress.claim_id = item.claim_id as string;
  if (item.claimed_at !== undefined) progress.claimed_at = item.claimed_at as string;
  if (item.announce_attempts !== undefined) progress.attempts = item.announce_attempts as number;
  if (item.next_attempt_at !== undefined) progress.next_attempt_at = item.next_attempt_at as string;
  if (item.last_error !== undefined) progress.last_error = item.last_error as string;
  if (item.claim_post !== undefined) progress.claim_post = item.claim_post as string;
  if (item.doc_uri !== undefined) progress.doc_uri = item.doc_uri as string;
  if (item.doc_cid !== undefined) progress.doc_cid = item.doc_cid as string;
  if (item.doc_revision !== undefined) progress.doc_revision = item.doc_revision as number;
  if (item.doc_attempts !== undefined) progress.doc_attempts = item.doc_attempts as number;
  if (item.held_until !== undefined) progress.held_until = item.held_until as string;
  if (item.held_reason !== undefined) progress.held_reason = item.held_reason as string;
  return progress;
}
