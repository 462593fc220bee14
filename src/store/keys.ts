// Key builders for every item in the one table (docs/design.md#data). Every per-person key uses the
// caller's stable account id, never the handle: handles change hands.

export interface ItemKey {
  PK: string;
  SK: string;
}

const REVISION_DIGITS = 6;

export const storyKey = (slug: string): ItemKey => ({ PK: `STORY#${slug}`, SK: 'META' });
export const bodyKey = (slug: string): ItemKey => ({ PK: `STORY#${slug}`, SK: 'BODY' });
export const revisionKey = (slug: string, revision: number): ItemKey => ({
  PK: `STORY#${slug}`,
  SK: `REV#${String(revision).padStart(REVISION_DIGITS, '0')}`,
});
export const revisionPrefix = 'REV#';
export const reproductionKey = (slug: string, account: string): ItemKey => ({
  PK: `STORY#${slug}`,
  SK: `REPRO#${account}`,
});
export const checkKey = (slug: string, account: string): ItemKey => ({
  PK: `STORY#${slug}`,
  SK: `CHECK#${account}`,
});
/** One account's drift report of one hash of a story's steps (design.md#drift). */
export const driftReportKey = (slug: string, sha256: string, account: string): ItemKey => ({
  PK: `STORY#${slug}`,
  SK: `DRIFT#${sha256}#${account}`,
});
/** The counted reporters of one drifted hash of a story's steps (design.md#drift). */
export const driftTallyKey = (slug: string, sha256: string): ItemKey => ({ PK: `STORY#${slug}`, SK: `DRIFTHASH#${sha256}` });
/** A success story that answers the fail story `fail`, under the fail story's partition (design.md#answered-fail). */
export const answerKey = (fail: string, answer: string): ItemKey => ({ PK: `STORY#${fail}`, SK: `ANSWER#${answer}` });
export const answerPrefix = 'ANSWER#';
export const inboxPartition = (account: string): string => `INBOX#${account}`;
export const notificationKey = (account: string, notificationId: string): ItemKey => ({
  PK: inboxPartition(account),
  SK: notificationId,
});
/** Op records are scoped to the caller: one op_id used by two accounts is two independent ops. */
export const opKey = (account: string, opId: string): ItemKey => ({ PK: `OP#${account}`, SK: opId });
export const accountKey = (account: string): ItemKey => ({ PK: `ACCOUNT#${account}`, SK: 'META' });
export const outboxPartition = 'OUTBOX';
export const outboxKey = (eventId: string): ItemKey => ({ PK: outboxPartition, SK: eventId });
/** The months that hold at least one public story, so the feed can walk its shards newest first. */
export const feedMonthsKey: ItemKey = { PK: 'FEED', SK: 'MONTHS' };
/** The site's standard.site publication, as the announcer last wrote it (design.md#standard-site). */
export const publicationKey: ItemKey = { PK: 'SITE', SK: 'PUBLICATION' };
/** The runtime settings, an item per setting under one partition: one Query reads them all (design.md#settings). */
export const settingsPartition = 'SETTING';
export const settingKey = (name: string): ItemKey => ({ PK: settingsPartition, SK: name });

/** Where the table-stream poller of one checkpoint namespace has got to in one shard of one stream. */
export const streamCheckpointPrefix = 'STREAMPOS#';
export const streamCheckpointKey = (namespace: string, streamArn: string, shardId: string): ItemKey => ({
  PK: `${streamCheckpointPrefix}${namespace}`,
  SK: `${streamArn}#${shardId}`,
});

export const feedPartition = (publishedAt: string): string => `FEED#${publishedAt.slice(0, 7)}`;
export const authorPartition = (account: string): string => `AUTHOR#${account}`;
export const listSortKey = (publishedAt: string, slug: string): string => `${publishedAt}#${slug}`;
export const announcePartition = 'ANNOUNCE';
/** Announcements set aside as too old when a sweep reached them (design.md#announcing-resumes): posted only by `sweep --backlog`. */
export const skippedAnnouncePartition = 'ANNOUNCE#SKIPPED';

export const keyOf = (item: { PK: string; SK: string }): ItemKey => ({ PK: item.PK, SK: item.SK });
export const keyId = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;
/** One story's show-more/show-less tally in one feed (design.md#feeds). */
export const feedTallyKey = (feed: string, slug: string): ItemKey => ({ PK: `FEEDTALLY#${feed}#${slug}`, SK: 'META' });
