// The document step's writes on a story's META (docs/design.md#standard-site), on the announce claim marker
// the post uses: one claim at a time works on a story's Bluesky side, so a document is never
// written while its post is deleted, nor after. The step claims from the recorded post (the marker
// goes `pending` with the post kept in `claim_post`, the queue entry to when the claim turns
// stale), and every way it ends puts the post back on the marker, fenced by the claim id.
import type { UpdateAction } from '../actions.ts';
import { and, type Condition } from '../condition.ts';
import { listSortKey, storyKey } from '../keys.ts';
import { INDEXES } from '../schema.ts';
import { updateItem } from '../update-item.ts';
import { ANNOUNCE_MARKER, type AnnounceClaimRequest, announceClaim, CLAIM_POST, listed, onQueue } from './announce/items.ts';
import { completeClaim, reclaimMarker } from './claim-marker.ts';
import { ANNOUNCE_QUEUE_ATTRIBUTES, announceQueueFields } from './story-items.ts';

export interface DocumentClaimRequest extends AnnounceClaimRequest {
  /** The recorded post: the marker must still hold it. */
  posted: string;
  /** The revision the document is made from: an edit in between refuses the claim. */
  revision: number;
}

export interface WrittenDocument {
  uri: string;
  cid: string;
  revision: number;
}

const atRevision = (revision: number): Condition => ({ expression: 'revision = :docRevision', values: { ':docRevision': revision } });

/** Claims the document step of a listed, posted story at the revision read, counting the attempt. */
export function claimDocument(request: DocumentClaimRequest): UpdateAction {
  return reclaimMarker(
    announceClaim(request.slug, request.claimId),
    request.claimedAt,
    request.posted,
    {
      setClauses: ['#docAttempts = if_not_exists(#docAttempts, :zero) + :one', '#queueSort = :staleSort', '#claimPost = :claimedPost'],
      names: { '#docAttempts': 'doc_attempts', '#queueSort': INDEXES.announce.sort, '#claimPost': CLAIM_POST },
      values: { ':zero': 0, ':one': 1, ':staleSort': listSortKey(request.staleAt, request.slug), ':claimedPost': request.posted },
    },
    and(onQueue, listed, atRevision(request.revision)),
  );
}

const documentFields = (written: WrittenDocument) => ({ doc_uri: written.uri, doc_cid: written.cid, doc_revision: written.revision });

/**
 * Records the document and leaves the queue: only the claim's holder can, and only while the
 * story is still listed and at the revision the document shows. Otherwise recordDocument.
 */
export function finishDocument(slug: string, claimId: string, posted: string, written: WrittenDocument): UpdateAction {
  return completeClaim(
    announceClaim(slug, claimId),
    posted,
    { set: documentFields(written), remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at', 'last_error', 'doc_attempts'] },
    and(listed, atRevision(written.revision)),
  );
}

/** Records the document and stays on the queue, due now: the story was edited, hidden or made private meanwhile. */
export function recordDocument(slug: string, claimId: string, posted: string, written: WrittenDocument, dueAt: string): UpdateAction {
  return completeClaim(announceClaim(slug, claimId), posted, {
    set: { ...documentFields(written), [INDEXES.announce.sort]: listSortKey(dueAt, slug) },
    remove: ['next_attempt_at', 'last_error', 'doc_attempts'],
  });
}

/** A failed document write: the post back on the marker, the queue entry at the retry time. */
export function retryDocumentLater(slug: string, claimId: string, posted: string, nextAttemptAt: string, lastError: string): UpdateAction {
  return completeClaim(announceClaim(slug, claimId), posted, {
    set: { next_attempt_at: nextAttemptAt, last_error: lastError, [INDEXES.announce.sort]: listSortKey(nextAttemptAt, slug) },
  });
}

/**
 * Gives the document up (refused, or out of attempts): the post back on the marker, off the
 * queue, `last_error` says why, attempts from zero for the next revision's try. Only while the
 * story is listed: an unlisted one stays queued for its deletion (recordPostStillOwed).
 */
export function giveUpDocument(slug: string, claimId: string, posted: string, lastError: string): UpdateAction {
  return completeClaim(
    announceClaim(slug, claimId),
    posted,
    { set: { last_error: lastError }, remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at', 'doc_attempts'] },
    listed,
  );
}

/** Its document is missing (never written, or given up) or shows an older revision. */
const documentBehind: Condition = { expression: 'attribute_not_exists(doc_revision) OR doc_revision <> revision' };

/**
 * Puts a listed, posted story whose document is missing or behind back on the announce queue, due
 * at `dueAt` (`npm run bsky:backfill-documents`: stories announced before documents existed, and
 * documents given up on). Only while all of that still holds, the marker still shows `posted` (no
 * claim in progress) and it is not queued: a second run, or one beside the sweeper, changes nothing.
 */
export function queueOwedDocument(slug: string, posted: string, dueAt: string): UpdateAction {
  return updateItem(
    storyKey(slug),
    { set: announceQueueFields(slug, dueAt) },
    and(
      listed,
      { expression: '#marker = :posted', names: { '#marker': ANNOUNCE_MARKER }, values: { ':posted': posted } },
      { expression: 'attribute_not_exists(#queue)', names: { '#queue': INDEXES.announce.partition } },
      documentBehind,
    ),
  );
}
