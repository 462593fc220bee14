// The announce protocol's writes on a story's META (docs/design.md#write-rules), built on the claim marker:
// `bsky_uri` absent = owed, `pending` = claimed by `claim_id`, an at-uri = posted. The queue
// entry (GSI3, ANNOUNCE / <due_at>#<slug>) means "the Bluesky side of this story needs work":
// a post while the story is listed (public and shown) and has none, a deletion once it is not
// listed any more (hidden, or made private) and may have one. Its sort key is when the sweeper
// should look next: the retry time after a failure, the moment a held claim turns stale.
import type { UpdateAction } from '../../actions.ts';
import { and, type Condition } from '../../condition.ts';
import { announcePartition, listSortKey, storyKey } from '../../keys.ts';
import { INDEXES } from '../../schema.ts';
import { updateItem } from '../../update-item.ts';
import { type Claim, claimMarker, completeClaim, reclaimMarker, releaseClaim } from '../claim-marker.ts';
import { ANNOUNCE_QUEUE_ATTRIBUTES, announceQueueFields, type StoryMeta } from '../story-items.ts';
import { notHeldAt } from './hold.ts';
import { type AnnounceProgress, DOCUMENT_ATTRIBUTES } from './progress.ts';

export const ANNOUNCE_MARKER = 'bsky_uri';

/** Whether the marker holds a post's at-uri (posted), not `pending` or nothing. */
export const isPostUri = (marker: string | undefined): marker is string => marker?.startsWith('at://') === true;

/**
 * While the document step holds the marker, `claim_post` keeps the post it was claimed from, so
 * the story still reads as posted (design.md#standard-site); every completion or release of a claim removes it.
 */
export const CLAIM_POST = 'claim_post';

export const announceClaim = (slug: string, claimId: string): Claim => ({
  key: storyKey(slug),
  marker: ANNOUNCE_MARKER,
  claimId,
  heldWith: [CLAIM_POST],
});

// Only a story still on the queue may be claimed: a claim made from an older read must not act
// on a story whose Bluesky side another worker has settled meanwhile.
export const onQueue: Condition = {
  expression: '#queue = :announcePartition',
  names: { '#queue': INDEXES.announce.partition },
  values: { ':announcePartition': announcePartition },
};

/** Public and shown: only then may it be posted (a hide or an edit to private in between stops it). */
export const listed: Condition = {
  expression: '#visibility = :public AND #hidden = :shown',
  names: { '#visibility': 'visibility', '#hidden': 'hidden' },
  values: { ':public': 'public', ':shown': false },
};

/** Hidden or private: only then may its post be deleted (an unhide in between stops it). */
const unlisted: Condition = {
  expression: '#visibility <> :public OR #hidden = :hiddenFlag',
  names: { '#visibility': 'visibility', '#hidden': 'hidden' },
  values: { ':public': 'public', ':hiddenFlag': true },
};

/** Bluesky was never reached: no marker, and no attempt that might have posted and lost the answer. */
const neverReached: Condition = {
  expression: 'attribute_not_exists(#marker) AND (attribute_not_exists(#attempts) OR #attempts = :noAttempts)',
  names: { '#marker': ANNOUNCE_MARKER, '#attempts': 'announce_attempts' },
  values: { ':noAttempts': 0 },
};

export interface AnnounceClaimRequest {
  slug: string;
  claimId: string;
  claimedAt: string;
  /** When this claim turns stale: the queue entry moves there, so only a dead worker's claim is swept. */
  staleAt: string;
  /** Take over a claim made before this time (a worker that died holding it). */
  takeOverBefore?: string | undefined;
}

export const countAttempt = (request: AnnounceClaimRequest) => ({
  setClauses: ['#attempts = if_not_exists(#attempts, :zero) + :one', '#queueSort = :staleSort'],
  names: { '#attempts': 'announce_attempts', '#queueSort': INDEXES.announce.sort },
  values: { ':zero': 0, ':one': 1, ':staleSort': listSortKey(request.staleAt, request.slug) },
});

/** Claims an owed announcement of a listed story, not held (design.md#new-accounts), and counts the attempt, in one conditional update. */
export function claimAnnounce(request: AnnounceClaimRequest): UpdateAction {
  return claimMarker(
    announceClaim(request.slug, request.claimId),
    request.claimedAt,
    request.takeOverBefore,
    countAttempt(request),
    and(onQueue, listed, notHeldAt(request.claimedAt)),
  );
}

/** Records the post and leaves the queue; only the claim's holder can, and only while the story is listed. */
export function completeAnnounce(slug: string, claimId: string, uri: string): UpdateAction {
  return completeClaim(
    announceClaim(slug, claimId),
    uri,
    { remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at', 'last_error'] },
    listed,
  );
}

/**
 * Records the post and stays on the queue, due now: the story was unlisted while we posted (its
 * post is deleted next), or its standard.site document is owed next (design.md#standard-site).
 */
export function recordPostStillOwed(slug: string, claimId: string, uri: string, dueAt: string): UpdateAction {
  return completeClaim(announceClaim(slug, claimId), uri, {
    set: { [INDEXES.announce.sort]: listSortKey(dueAt, slug) },
    remove: ['next_attempt_at', 'last_error'],
  });
}

/** Gives the claim back after a failed attempt; the queue entry moves to the retry time. */
export function retryAnnounceLater(slug: string, claimId: string, nextAttemptAt: string, lastError: string): UpdateAction {
  return releaseClaim(announceClaim(slug, claimId), {
    set: { next_attempt_at: nextAttemptAt, last_error: lastError, [INDEXES.announce.sort]: listSortKey(nextAttemptAt, slug) },
  });
}

/** Gives the claim back for good: off the queue, `last_error` says why (state `failed`). */
export function giveUpAnnounce(slug: string, claimId: string, lastError: string): UpdateAction {
  return releaseClaim(announceClaim(slug, claimId), {
    set: { last_error: lastError },
    remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at'],
  });
}

/**
 * Claims the deletion of an unlisted story's post: from the recorded post (`posted`), or — when
 * an attempt may have posted without recording it, or a claim went stale — from no marker or a
 * stale claim. Counts the attempt like an announcement.
 */
export function claimDelete(request: AnnounceClaimRequest & { posted?: string | undefined }): UpdateAction {
  const claim = announceClaim(request.slug, request.claimId);
  const guard = and(onQueue, unlisted);
  return request.posted === undefined
    ? claimMarker(claim, request.claimedAt, request.takeOverBefore, countAttempt(request), guard)
    : reclaimMarker(claim, request.claimedAt, request.posted, countAttempt(request), guard);
}

/**
 * The post (and the story's document) is gone: no marker, attempts from zero (so a later
 * announcement posts at the same, now free, record key without a look-up), no document fields,
 * and the queue entry due now for a last check.
 */
export function completeDelete(slug: string, claimId: string, dueAt: string): UpdateAction {
  return releaseClaim(announceClaim(slug, claimId), {
    set: { announce_attempts: 0, [INDEXES.announce.sort]: listSortKey(dueAt, slug) },
    remove: ['next_attempt_at', 'last_error', ...DOCUMENT_ATTRIBUTES],
  });
}

/** A failed deletion: the marker goes back to what it held (the post, or nothing) until the retry time. */
export function retryDeleteLater(
  slug: string,
  claimId: string,
  restore: string | undefined,
  nextAttemptAt: string,
  lastError: string,
): UpdateAction {
  if (restore === undefined) return retryAnnounceLater(slug, claimId, nextAttemptAt, lastError);
  return completeClaim(announceClaim(slug, claimId), restore, {
    set: { next_attempt_at: nextAttemptAt, last_error: lastError, [INDEXES.announce.sort]: listSortKey(nextAttemptAt, slug) },
  });
}

/** The story's document shows its current revision (design.md#standard-site). */
export const documentCurrent: Condition = { expression: 'doc_revision = revision' };

/**
 * Nothing to do on Bluesky, as checked: leave the queue, but only if what was checked still
 * holds (with `documented`, also that the story's document still shows its current revision).
 */
export function leaveAnnounceQueue(slug: string, checked: { posted: string; documented?: boolean } | { neverReached: true }): UpdateAction {
  const still: Condition =
    'posted' in checked
      ? and(
          { expression: '#marker = :posted', names: { '#marker': ANNOUNCE_MARKER }, values: { ':posted': checked.posted } },
          listed,
          ...(checked.documented === true ? [documentCurrent] : []),
        )
      : and(neverReached, unlisted);
  return updateItem(storyKey(slug), { remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at'] }, and(onQueue, still));
}

/**
 * What unlisting a story (a hide, an edit to private) does to its queue entry. Bluesky never
 * reached: off the queue, on condition that is still so (an announcer claiming in between makes
 * the write re-plan). Otherwise the entry is set due now: the announcer deletes the post.
 */
export function unlistAnnouncement(
  meta: Pick<StoryMeta, 'slug'> & { announce: Pick<AnnounceProgress, 'bsky_uri' | 'attempts'> },
  at: string,
): {
  set: Record<string, unknown>;
  remove: string[];
  condition?: Condition;
} {
  if (meta.announce.bsky_uri === undefined && (meta.announce.attempts ?? 0) === 0) {
    return { set: {}, remove: [...ANNOUNCE_QUEUE_ATTRIBUTES], condition: neverReached };
  }
  return { set: announceQueueFields(meta.slug, at), remove: [] };
}

/**
 * What listing a story again (an unhide, an edit to public) does to its queue entry. Never
 * posted and not queued: an announcement is owed (on condition it is still unposted). Its post
 * still live (a deletion was queued but has not run) and its document showing `revision`, the
 * revision the story has after this write: nothing to do, off the queue (on condition both are
 * still so). Anything else already queued keeps its place (the announcer writes the document of
 * the new revision).
 */
export function listAnnouncement(
  meta: Pick<StoryMeta, 'slug'> & { announce: Pick<AnnounceProgress, 'bsky_uri' | 'queued' | 'doc_revision' | 'held_until'> },
  at: string,
  revision: number,
): {
  set: Record<string, unknown>;
  remove: string[];
  condition?: Condition;
} {
  const { bsky_uri: marker, queued, held_until: heldUntil } = meta.announce;
  if (marker === undefined && !queued) {
    return {
      // A held announcement (design.md#new-accounts) is due at its release, not before.
      set: announceQueueFields(meta.slug, heldUntil !== undefined && heldUntil > at ? heldUntil : at),
      remove: [],
      condition: { expression: 'attribute_not_exists(#marker)', names: { '#marker': ANNOUNCE_MARKER } },
    };
  }
  if (isPostUri(marker) && queued && meta.announce.doc_revision === revision) {
    return {
      set: {},
      remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at'],
      condition: and(
        { expression: '#marker = :posted', names: { '#marker': ANNOUNCE_MARKER }, values: { ':posted': marker } },
        documentCurrent,
      ),
    };
  }
  return { set: {}, remove: [] };
}

/**
 * What a new revision of a story that stays listed does to its queue entry: once it has reached
 * Bluesky (posted, or an attempt in flight), its document is owed the new revision (design.md#standard-site),
 * so it joins the queue due now — unless it is queued already, where its place (a retry's time,
 * a claim's staleness) is kept: the announcer reads the story afresh when it gets there.
 */
export function reviseAnnouncement(meta: Pick<StoryMeta, 'slug'> & { announce: Pick<AnnounceProgress, 'bsky_uri'> }, at: string) {
  if (meta.announce.bsky_uri === undefined) return undefined;
  return {
    setClauses: ['#queue = if_not_exists(#queue, :announcePartition)', '#queueSort = if_not_exists(#queueSort, :dueSort)'],
    names: { '#queue': INDEXES.announce.partition, '#queueSort': INDEXES.announce.sort },
    values: { ':announcePartition': announcePartition, ':dueSort': listSortKey(at, meta.slug) },
  };
}
