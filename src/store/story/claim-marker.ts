// Primitive 3 — claim / complete / release a marker attribute, fenced by a claim id. Used for
// side effects that must happen once outside the database (the Bluesky post): only the holder of
// the claim may record the result or give the claim back, so a slow worker whose claim was taken
// over cannot overwrite the new holder's result.
import type { UpdateAction } from '../actions.ts';
import { and, type Condition } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { type ItemChanges, updateItem } from '../update-item.ts';

export const PENDING = 'pending';

export interface Claim {
  key: ItemKey;
  /** The marker attribute, e.g. `bsky_uri`: absent = owed, `pending` = claimed, else the result. */
  marker: string;
  claimId: string;
  /** Attributes that live only while a claim is held (set by the claim's own write): removed with the claim. */
  heldWith?: readonly string[];
}

/**
 * Claims the marker if nobody holds it — or, when `staleBefore` is given, if the holder claimed
 * it before then (a crashed worker). The duplicate this prevents: two workers both posting.
 * `guard` adds what else must hold (e.g. the work is still owed).
 */
export function claimMarker(
  claim: Claim,
  claimedAt: string,
  staleBefore?: string,
  also: ItemChanges = {},
  guard?: Condition,
): UpdateAction {
  const takeover = staleBefore === undefined ? '' : ' OR (#marker = :pending AND claimed_at < :staleBefore)';
  const claimable: Condition = {
    expression: `attribute_not_exists(#marker)${takeover}`,
    values: staleBefore === undefined ? {} : { ':staleBefore': staleBefore },
  };
  return updateItem(
    claim.key,
    {
      ...also,
      setClauses: ['#marker = :pending', 'claim_id = :claimId', 'claimed_at = :claimedAt', ...(also.setClauses ?? [])],
      names: { ...also.names, '#marker': claim.marker },
      values: { ...also.values, ':pending': PENDING, ':claimId': claim.claimId, ':claimedAt': claimedAt },
    },
    guard === undefined ? claimable : and(claimable, guard),
  );
}

/**
 * Claims a marker that holds a result, to undo the side effect (deleting a post): only while it
 * still holds exactly that result. The duplicate this prevents: undoing what another worker has
 * just redone, or two workers undoing at once.
 */
export function reclaimMarker(claim: Claim, claimedAt: string, result: string, also: ItemChanges = {}, guard?: Condition): UpdateAction {
  const holdsResult: Condition = { expression: '#marker = :result', values: { ':result': result } };
  return updateItem(
    claim.key,
    {
      ...also,
      setClauses: ['#marker = :pending', 'claim_id = :claimId', 'claimed_at = :claimedAt', ...(also.setClauses ?? [])],
      names: { ...also.names, '#marker': claim.marker },
      values: { ...also.values, ':pending': PENDING, ':claimId': claim.claimId, ':claimedAt': claimedAt },
    },
    guard === undefined ? holdsResult : and(holdsResult, guard),
  );
}

const heldByMe = {
  expression: '#marker = :pending AND claim_id = :claimId',
};

const fenced = (claim: Claim, guard: Condition | undefined): Condition => {
  const held: Condition = { ...heldByMe, values: { ':pending': PENDING, ':claimId': claim.claimId } };
  return guard === undefined ? held : and(held, guard);
};

/** Records the result; only the current holder can (and only while `guard` holds, if given). */
export function completeClaim(claim: Claim, result: string, also: ItemChanges = {}, guard?: Condition): UpdateAction {
  return updateItem(
    claim.key,
    {
      ...also,
      setClauses: ['#marker = :result', ...(also.setClauses ?? [])],
      remove: ['claim_id', 'claimed_at', ...(claim.heldWith ?? []), ...(also.remove ?? [])],
      names: { ...also.names, '#marker': claim.marker },
      values: { ...also.values, ':result': result },
    },
    fenced(claim, guard),
  );
}

/** Gives the claim back after a failure so a later attempt may claim it; only the holder can. */
export function releaseClaim(claim: Claim, also: ItemChanges = {}, guard?: Condition): UpdateAction {
  return updateItem(
    claim.key,
    {
      ...also,
      remove: [claim.marker, 'claim_id', 'claimed_at', ...(claim.heldWith ?? []), ...(also.remove ?? [])],
      names: { ...also.names, '#marker': claim.marker },
    },
    fenced(claim, guard),
  );
}
