// What the capability badge by hash shows (docs/capability.md, "The badge by hash"): the tier of
// the scanned text whose sha256 starts with the digits in the URL, from its record under the
// newest scanner version that scanned it. Anything that does not name exactly one text is
// `undefined`, the neutral badge: a malformed prefix, no record, or a prefix two different
// texts share (48 bits can be made to collide; showing either text's tier would let one text
// borrow the other's badge). Records exist only for texts of publicly listed stories, so no
// answer here tells that a private or hidden story exists.
import { compareScannerVersions } from '../../domain/capability/version-order.ts';
import { CAPABILITY_PREFIX_LENGTH, type CapabilityRecord } from '../../store/story/capability-record-items.ts';
import { capabilityRecordsByPrefix } from '../../store/story/capability-record-query.ts';
import type { AppContext } from '../context/app-context.ts';

/** 12 to 64 hex digits: the badge's 12, or more of the hash when 12 are shared by two texts. */
const SHA_PREFIX = new RegExp(`^[0-9a-f]{${CAPABILITY_PREFIX_LENGTH},64}$`);

export async function capabilityBadgeRecord(ctx: AppContext, shaPrefix: string): Promise<CapabilityRecord | undefined> {
  const prefix = shaPrefix.toLowerCase();
  if (!SHA_PREFIX.test(prefix)) return undefined;
  const { records, truncated } = await capabilityRecordsByPrefix(ctx.store, prefix);
  if (truncated || new Set(records.map((record) => record.sha256)).size !== 1) return undefined;
  return records.reduce((newest, record) => (compareScannerVersions(record.scanner_version, newest.scanner_version) > 0 ? record : newest));
}
