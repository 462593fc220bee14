// The image items (docs/design.md#data, docs/design.md#images):
// - `IMAGE#<sha256> / META`: one per stored image, created once (attribute_not_exists) by the
//   first upload of those bytes, whoever sent it: type, size, dimensions, first uploader. Serving
//   and the announcer's thumbnail read it first, so only recorded images are ever served.
// - `IMGDAY#<account> / <yyyy-mm-dd>` (UTC): the set of image hashes the account uploaded that
//   day. The day's count IS the set's size, and a hash joins the set only under the condition
//   that it is not in it yet and the set is below the limit, so the same image twice counts
//   once and 16 parallel deliveries add it once (primitive 2, the list-conditioned count).
import type { PutAction, StoredItem, UpdateAction } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { updateItem } from '../update-item.ts';

export const imageKey = (sha256: string): ItemKey => ({ PK: `IMAGE#${sha256}`, SK: 'META' });
export const imageDayKey = (account: string, day: string): ItemKey => ({ PK: `IMGDAY#${account}`, SK: day });

export interface ImageRecord {
  sha256: string;
  type: string;
  width: number;
  height: number;
  bytes: number;
  uploaded_by: string;
  uploaded_at: string;
}

export function createImageRecord(image: ImageRecord): PutAction {
  return createItem({
    ...imageKey(image.sha256),
    ...image,
  });
}

export function toImageRecord(item: StoredItem): ImageRecord {
  return {
    sha256: String(item.sha256),
    type: String(item.type),
    width: Number(item.width),
    height: Number(item.height),
    bytes: Number(item.bytes),
    uploaded_by: String(item.uploaded_by),
    uploaded_at: String(item.uploaded_at),
  };
}

/** The hashes an account's day item holds (none when there is no item yet). */
export function hashesOfDay(item: StoredItem | undefined): ReadonlySet<string> {
  const hashes = item?.hashes;
  return hashes instanceof Set ? (hashes as Set<string>) : new Set();
}

export interface ImageDay {
  account: string;
  /** `yyyy-mm-dd`, UTC. */
  day: string;
  sha256: string;
  limit: number;
  /** TTL, epoch seconds: after the day is over nothing reads it. */
  expiresAt: number;
}

/** The day's first upload: the item is created with the one hash; a second first loses the creation condition. */
export function startImageDay(day: ImageDay): PutAction {
  return createItem({ ...imageDayKey(day.account, day.day), hashes: new Set([day.sha256]), expires_at: day.expiresAt });
}

/** A further upload: the hash joins only while it is absent and the day is below its limit. */
export function countImageInDay(day: ImageDay): UpdateAction {
  return updateItem(
    imageDayKey(day.account, day.day),
    { addClauses: ['#hashes :hashSet'], names: { '#hashes': 'hashes' }, values: { ':hashSet': new Set([day.sha256]) } },
    // The duplicate this prevents: the same image (or a 31st) counted by a second delivery that read the same day.
    { expression: 'NOT contains(#hashes, :hash) AND size(#hashes) < :limit', values: { ':hash': day.sha256, ':limit': day.limit } },
  );
}

/** The condition an upload already counted today commits with its op record: the hash is still in the day. */
export const imageCountedIn = (sha256: string) => ({
  expression: 'contains(#hashes, :hash)',
  names: { '#hashes': 'hashes' },
  values: { ':hash': sha256 },
});
