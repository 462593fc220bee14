// The announce queue (GSI3, keys only): stories owed an announcement whose due time has come,
// oldest first; the ones still waiting (a retry not due yet, a live claim), for the sweep to say
// what it skipped; and the earliest entry, for the sweep timer to wake when it is due. The index
// is eventually consistent; the announcer re-reads META before acting.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { announcePartition } from '../../keys.ts';
import { INDEXES } from '../../schema.ts';
import type { Store } from '../../store.ts';
import { callStore } from '../../store-unavailable.ts';

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

/** Entries not due yet at `now` (ISO), soonest first. */
export function waitingAnnouncementsParams(tableName: string, now: string, limit: number): QueryCommandInput {
  const { name, partition, sort } = INDEXES.announce;
  return {
    TableName: tableName,
    IndexName: name,
    KeyConditionExpression: '#partition = :partition AND #sort > :due',
    ExpressionAttributeNames: { '#partition': partition, '#sort': sort },
    ExpressionAttributeValues: { ':partition': announcePartition, ':due': `${now}#\uffff` },
    ScanIndexForward: true,
    Limit: limit,
  };
}

/** The earliest entry, due or not. */
export function firstAnnouncementParams(tableName: string): QueryCommandInput {
  const { name, partition } = INDEXES.announce;
  return {
    TableName: tableName,
    IndexName: name,
    KeyConditionExpression: '#partition = :partition',
    ExpressionAttributeNames: { '#partition': partition },
    ExpressionAttributeValues: { ':partition': announcePartition },
    ScanIndexForward: true,
    Limit: 1,
  };
}

async function queueEntries(store: Store, params: QueryCommandInput): Promise<DueAnnouncement[]> {
  const output = await callStore(() => store.client.send(new QueryCommand(params)));
  return ((output.Items ?? []) as Record<string, unknown>[]).map((item) => {
    const sort = String(item[INDEXES.announce.sort]);
    const at = sort.indexOf('#');
    return { dueAt: sort.slice(0, at), slug: sort.slice(at + 1) };
  });
}

export const dueAnnouncements = (store: Store, now: string, limit: number): Promise<DueAnnouncement[]> =>
  queueEntries(store, dueAnnouncementsParams(store.tableName, now, limit));

export const waitingAnnouncements = (store: Store, now: string, limit: number): Promise<DueAnnouncement[]> =>
  queueEntries(store, waitingAnnouncementsParams(store.tableName, now, limit));

/** When the earliest entry on the queue is due (ISO), or undefined when the queue is empty. */
export async function firstAnnouncementDue(store: Store): Promise<string | undefined> {
  return (await queueEntries(store, firstAnnouncementParams(store.tableName)))[0]?.dueAt;
}
