// The announce backlog (docs/design.md#announcing-resumes): never-tried announcements owed longer than the age
// limit when a sweep reaches them are set aside — the story's queue entry moves, sort key and
// all (`<owed_since>#<slug>`), from the ANNOUNCE partition of GSI3 to ANNOUNCE#SKIPPED — and go
// back on the queue only when an operator runs `npm run sweep -- --backlog`. Nothing else is
// stored: the partition says "skipped, too old", the sort key says since when it is owed.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { UpdateAction } from '../../actions.ts';
import { announcePartition, listSortKey, skippedAnnouncePartition, storyKey } from '../../keys.ts';
import { INDEXES } from '../../schema.ts';
import type { Store } from '../../store.ts';
import { callStore } from '../../store-unavailable.ts';
import { updateItem } from '../../update-item.ts';
import type { DueAnnouncement } from './queue.ts';

const queueNames = { '#queue': INDEXES.announce.partition, '#queueSort': INDEXES.announce.sort };

/**
 * Sets the entry aside, only while it is exactly the entry the sweep read (same due time) and the
 * story was never tried: no post, no claim, no attempt counted, no retry scheduled.
 */
export function setAsideTooOld(entry: DueAnnouncement): UpdateAction {
  return updateItem(
    storyKey(entry.slug),
    { set: { [INDEXES.announce.partition]: skippedAnnouncePartition } },
    {
      expression:
        '#queue = :queued AND #queueSort = :sort AND attribute_not_exists(#marker) AND attribute_not_exists(#next) AND (attribute_not_exists(#attempts) OR #attempts = :none)',
      names: { ...queueNames, '#marker': 'bsky_uri', '#next': 'next_attempt_at', '#attempts': 'announce_attempts' },
      values: { ':queued': announcePartition, ':sort': listSortKey(entry.dueAt, entry.slug), ':none': 0 },
    },
  );
}

/** Puts a set-aside entry back on the queue, due `dueAt` (now): only while it is still set aside. */
export function takeBackFromBacklog(slug: string, dueAt: string): UpdateAction {
  return updateItem(
    storyKey(slug),
    { set: { [INDEXES.announce.partition]: announcePartition, [INDEXES.announce.sort]: listSortKey(dueAt, slug) } },
    { expression: '#queue = :skipped', names: { '#queue': INDEXES.announce.partition }, values: { ':skipped': skippedAnnouncePartition } },
  );
}

/** Up to `limit` set-aside entries owed since `since` (ISO) or later, oldest first; `dueAt` is the owed-since time. */
export async function setAsideAnnouncements(store: Store, since: string | undefined, limit: number): Promise<DueAnnouncement[]> {
  const { name, partition, sort } = INDEXES.announce;
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: name,
        KeyConditionExpression: since === undefined ? '#partition = :partition' : '#partition = :partition AND #sort >= :since',
        ExpressionAttributeNames: since === undefined ? { '#partition': partition } : { '#partition': partition, '#sort': sort },
        ExpressionAttributeValues:
          since === undefined ? { ':partition': skippedAnnouncePartition } : { ':partition': skippedAnnouncePartition, ':since': since },
        ScanIndexForward: true,
        Limit: limit,
      }),
    ),
  );
  return ((output.Items ?? []) as Record<string, unknown>[]).map((item) => {
    const key = String(item[sort]);
    const at = key.indexOf('#');
    return { dueAt: key.slice(0, at), slug: key.slice(at + 1) };
  });
}
