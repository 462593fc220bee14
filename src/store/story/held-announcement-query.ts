// Held announcements for the operators' queue (design.md#new-accounts): new accounts' listed stories waiting
// on the announce queue (GSI3) until their hold ends. The index is keys only and also holds
// retries not due yet, so the entries due later than now are read latest first and each one's
// META says whether it is held (a hold is up to LOREBOOK_NEW_ACCOUNT_HOURS away; a retry's wait is
// minutes, so holds come first).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { announcePartition, storyKey } from '../keys.ts';
import { pick, readItems } from '../read-items.ts';
import { INDEXES } from '../schema.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';
import { isHeld } from './announce/hold.ts';
import { toStoryMeta } from './story-items.ts';
import { isTombstone } from './story-tombstone.ts';

export interface HeldAnnouncement {
  kind: 'held_announcement';
  slug: string;
  title: string;
  author: string;
  /** When it was published (and held). */
  at: string;
  /** When the hold ends by itself. */
  held_until: string;
  held_reason: string;
}

/** At most `limit` held stories, the latest hold first. */
export async function queryHeldAnnouncements(store: Store, limit: number): Promise<HeldAnnouncement[]> {
  const now = store.now();
  const { name, partition, sort } = INDEXES.announce;
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: name,
        KeyConditionExpression: '#partition = :partition AND #sort > :now',
        ExpressionAttributeNames: { '#partition': partition, '#sort': sort },
        ExpressionAttributeValues: { ':partition': announcePartition, ':now': `${new Date(now).toISOString()}#\uffff` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    ),
  );
  const slugs = ((output.Items ?? []) as Record<string, unknown>[]).map((item) => {
    const entry = String(item[sort]);
    return entry.slice(entry.indexOf('#') + 1);
  });
  const metas = await readItems(store, slugs.map(storyKey));
  return slugs.flatMap((slug): HeldAnnouncement[] => {
    const item = pick(metas, storyKey(slug));
    if (item === undefined || isTombstone(item)) return [];
    const meta = toStoryMeta(item);
    if (!isHeld(meta.announce, now)) return [];
    const { held_until, held_reason = 'new_account' } = meta.announce;
    return [{ kind: 'held_announcement', slug, title: meta.title, author: meta.author, at: meta.published_at, held_until, held_reason }];
  });
}
