// The announce queue (GSI3, keys only): stories owed an announcement whose due time has come,
// oldest first. The index is eventually consistent; the announcer re-reads META before acting.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { announcePartition } from './keys.ts';
import { INDEXES } from './schema.ts';
import { callStore } from './store-unavailable.ts';
import type { Store } from './store.ts';

export interface DueAnnouncement {
  slug: string;
  /** The entry's due time (ISO). */
  dueAt: string;
}

/** Entries due at or before `now` (ISO): the sort key is `<due_at>#<slug>`, and `#\uffff` sorts after every slug. */
export function dueAnnouncementsParams(tableName: string, now: string, limit: number): QueryCommandInput {
  const { name, partition, sort } = INDEXES.announce;
  return {
    TableName: tableName,
    IndexName: name,
    KeyConditionExpression: '#partition = :partition AND #sort <= :due',
    ExpressionAttributeNames: { '#partition': partition, '#sort': sort },
    ExpressionAttributeValues: { ':partition': announcePartition, ':due': `${now}#\uffff` },
    ScanIndexForward: true,
    Limit: limit,
  };
}

export async function dueAnnouncements(store: Store, now: string, limit: number): Promise<DueAnnouncement[]> {
  const output = await callStore(() => store.client.send(new QueryCommand(dueAnnouncementsParams(store.tableName, now, limit))));
  return ((output.Items ?? []) as Record<string, unknown>[]).map((item) => {
    const sort = String(item[INDEXES.announce.sort]);
    const at = sort.indexOf('#');
    return { dueAt: sort.slice(0, at), slug: sort.slice(at + 1) };
  });
}
