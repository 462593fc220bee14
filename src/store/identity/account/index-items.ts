// Index items under `ACCOUNT#<account>` for what is otherwise found only by a Scan (design.md#account-deletion):
// a report on someone else's story, a web session, an uploaded image. Each is written in the same
// transaction as the item it points to, replaced by key (a second delivery writes the same item),
// and read only by account deletion and export (owned-items.ts). A pointer left after
// its item went (a withdrawn report, an ended session) is harmless: deletion finds nothing there.
import type { PutAction, StoredItem } from '../../actions.ts';
import type { ItemKey } from '../../keys.ts';
import { replaceItem } from '../../replace-by-key.ts';

const accountPartition = (account: string): string => `ACCOUNT#${account}`;

export const ON_STORY_PREFIX = 'ONSTORY#';
export const WEB_SESSION_INDEX_PREFIX = 'WEBSESS#';
export const IMAGE_INDEX_PREFIX = 'IMAGE#';

export const webSessionIndexKey = (account: string, sessionHash: string): ItemKey => ({
  PK: accountPartition(account),
  SK: `${WEB_SESSION_INDEX_PREFIX}${sessionHash}`,
});
export const imageIndexKey = (account: string, sha256: string): ItemKey => ({
  PK: accountPartition(account),
  SK: `${IMAGE_INDEX_PREFIX}${sha256}`,
});

/**
 * The account reported on this story: a reproduction or check (`ONSTORY#<slug>`), or a drift
 * report of one hash (`ONSTORY#<slug>#<sha256>`, one per hash, so no read-modify of a list).
 */
export function noteReportOn(account: string, slug: string, driftHash?: string): PutAction {
  const sk = driftHash === undefined ? `${ON_STORY_PREFIX}${slug}` : `${ON_STORY_PREFIX}${slug}#${driftHash}`;
  return replaceItem({ PK: accountPartition(account), SK: sk, slug, ...(driftHash === undefined ? {} : { sha256: driftHash }) });
}

export interface ReportOnStory {
  slug: string;
  /** Set on a drift report's index item. */
  sha256?: string;
}

export function toReportOnStory(item: StoredItem): ReportOnStory {
  return { slug: String(item.slug), ...(typeof item.sha256 === 'string' ? { sha256: item.sha256 } : {}) };
}

export function webSessionIndexItem(account: string, sessionHash: string, expiresAt: number): PutAction {
  return replaceItem({ ...webSessionIndexKey(account, sessionHash), session_hash: sessionHash, expires_at: expiresAt });
}

export function imageIndexItem(account: string, sha256: string): PutAction {
  return replaceItem({ ...imageIndexKey(account, sha256), sha256 });
}
