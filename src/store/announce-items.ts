// The announce protocol's writes on a story's META (design §4), built on the claim marker:
// `bsky_uri` absent = owed, `pending` = claimed by `claim_id`, an at-uri = posted. The queue
// entry (GSI3, ANNOUNCE / <due_at>#<slug>) stays while the announcement is owed; its sort key is
// when the sweeper should look next: the retry time after a failure, the moment the claim
// turns stale while one is held.
import type { UpdateAction } from './actions.ts';
import { claimMarker, completeClaim, releaseClaim, type Claim } from './claim-marker.ts';
import type { Condition } from './condition.ts';
import { announcePartition, listSortKey, storyKey } from './keys.ts';
import { INDEXES } from './schema.ts';
import { ANNOUNCE_QUEUE_ATTRIBUTES } from './story-items.ts';

export const ANNOUNCE_MARKER = 'bsky_uri';

export const announceClaim = (slug: string, claimId: string): Claim => ({ key: storyKey(slug), marker: ANNOUNCE_MARKER, claimId });

// Only a story still on the queue may be claimed: a hide (or a post recorded by another worker)
// takes it off, and a claim made from an older read must not announce it anyway.
const stillOwed: Condition = {
  expression: '#queue = :announcePartition',
  names: { '#queue': INDEXES.announce.partition },
  values: { ':announcePartition': announcePartition },
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

/** Claims an owed announcement and counts the attempt, in one conditional update. */
export function claimAnnounce(request: AnnounceClaimRequest): UpdateAction {
  return claimMarker(
    announceClaim(request.slug, request.claimId),
    request.claimedAt,
    request.takeOverBefore,
    {
      setClauses: ['#attempts = if_not_exists(#attempts, :zero) + :one', '#queueSort = :staleSort'],
      names: { '#attempts': 'announce_attempts', '#queueSort': INDEXES.announce.sort },
      values: { ':zero': 0, ':one': 1, ':staleSort': listSortKey(request.staleAt, request.slug) },
    },
    stillOwed,
  );
}

/** Records the post and leaves the queue; only the claim's holder can. */
export function completeAnnounce(slug: string, claimId: string, uri: string): UpdateAction {
  return completeClaim(announceClaim(slug, claimId), uri, { remove: [...ANNOUNCE_QUEUE_ATTRIBUTES, 'next_attempt_at', 'last_error'] });
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
