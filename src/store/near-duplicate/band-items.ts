// Near-duplicate band items (design.md#spam-waves): `DUPBAND#<band>` / `META`, one per LSH band of a listed
// story's signature, held by the first story that claimed it for the duplicate window. A publish
// reads the bands of its own signature in its snapshot and claims the free ones in its own
// transaction, each created only while absent or expired: of two near-duplicates published at the
// same instant, which share a band, one transaction fails that condition, re-reads, and finds the
// other. An edit moves its story's bands with its text (refreshBand, releaseBand) in the edit's
// own transaction. Nothing is kept in a process: the store is the index, bounded by its TTL.
import type { DeleteAction, PutAction, StoredItem } from '../actions.ts';
import type { Condition } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { deleteItemIf, replaceItem } from '../replace-by-key.ts';
import { epochSeconds, isExpired } from '../store.ts';

export const bandKey = (band: string): ItemKey => ({ PK: `DUPBAND#${band}`, SK: 'META' });

/** The story holding a band: enough to judge a candidate without reading the story. */
export interface BandHolder {
  band: string;
  slug: string;
  author: string;
  /** The holder's whole signature (signatureHex), so the estimate needs no further read. */
  signature: string;
  published_at: string;
}

/** The live holder of a band read in a snapshot; none when absent or past its window. */
export function bandHolderOf(item: StoredItem | undefined, nowMs: number): BandHolder | undefined {
  if (item === undefined || isExpired(item, nowMs)) return undefined;
  return item as unknown as BandHolder;
}

/**
 * Claims a band for `holder` until `expiresAtMs`: created while nothing live holds it (an expired
 * item may linger until DynamoDB deletes it). A second near-duplicate planned from the same empty
 * read fails here instead of landing beside the first.
 */
export function claimBand(holder: BandHolder, expiresAtMs: number, nowMs: number): PutAction {
  return replaceItem(
    { ...bandKey(holder.band), ...holder, expires_at: epochSeconds(expiresAtMs) },
    { expression: 'attribute_not_exists(PK) OR expires_at <= :now', values: { ':now': epochSeconds(nowMs) } },
  );
}

/** What a band still holds when an edit moves it: the story, with the signature its text had. */
const heldBy = (holder: Pick<BandHolder, 'slug' | 'signature'>): Condition => ({
  expression: '#slug = :holderSlug AND #signature = :holderSignature',
  names: { '#slug': 'slug', '#signature': 'signature' },
  values: { ':holderSlug': holder.slug, ':holderSignature': holder.signature },
});

/**
 * An edited story's band that its new text still has: it keeps the band with the new signature
 * for a new window. Conditioned on what was read, so two edits planned from one read cannot both
 * write it.
 */
export function refreshBand(read: BandHolder, holder: BandHolder, expiresAtMs: number): PutAction {
  return replaceItem({ ...bandKey(holder.band), ...holder, expires_at: epochSeconds(expiresAtMs) }, heldBy(read));
}

/** An edited story's band that its new text no longer has: it leaves it, as read, to whoever comes next. */
export function releaseBand(read: BandHolder): DeleteAction {
  return deleteItemIf(bandKey(read.band), heldBy(read));
}
