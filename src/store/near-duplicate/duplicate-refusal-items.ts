// Refused near-duplicates (design.md#spam-waves, docs/moderation.md "Spam waves"): one item per refused
// (original, account, content) under the UTC day of the refusal, so a moderation queue lists a
// wave as one partition Query per day, grouped by `original`. It holds no body: the refused text
// is not stored anywhere. Keyed by what the refused call sent, so the same refusal delivered
// twice, or sixteen times at once, is one item.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PutAction, StoredItem } from '../actions.ts';
import type { ItemKey } from '../keys.ts';
import { createItem } from '../replace-by-key.ts';
import { KEY } from '../schema.ts';
import { epochSeconds, isExpired, type Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

/** A refusal record outlives the window by this much, so a moderator still sees a wave after it ends. */
export const REFUSAL_KEPT_DAYS = 30;

export const duplicateRefusalPartition = (day: string): string => `DUPWAVE#${day}`;

export interface DuplicateRefusal {
  /** The slug of the listed story the refused one repeats. */
  original: string;
  /** The account whose publish was refused. */
  account: string;
  /** The slug the refused story would have had. */
  slug: string;
  title: string;
  content_hash: string;
  refused_at: string;
}

export const duplicateRefusalKey = (refusal: Pick<DuplicateRefusal, 'original' | 'account' | 'content_hash' | 'refused_at'>): ItemKey => ({
  PK: duplicateRefusalPartition(refusal.refused_at.slice(0, 10)),
  SK: `${refusal.original}#${refusal.account}#${refusal.content_hash}`,
});

/** Created once: a repeat of the same refusal keeps the first `refused_at`. */
export function recordDuplicateRefusal(refusal: DuplicateRefusal, expiresAtMs: number): PutAction {
  return createItem({ ...duplicateRefusalKey(refusal), ...refusal, expires_at: epochSeconds(expiresAtMs) });
}

/** Pages read at most per day listed: a moderation view, never a scan. */
const MAX_PAGES = 20;

/** The refusals of one UTC day (`YYYY-MM-DD`), by original: each original's wave together. */
export async function listDuplicateRefusals(store: Store, day: string): Promise<DuplicateRefusal[]> {
  const refusals: DuplicateRefusal[] = [];
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const output = await callStore(() =>
      store.client.send(
        new QueryCommand({
          TableName: store.tableName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': KEY.partition },
          ExpressionAttributeValues: { ':pk': duplicateRefusalPartition(day) },
          ExclusiveStartKey: start,
        }),
      ),
    );
    for (const item of (output.Items ?? []) as StoredItem[]) if (!isExpired(item, store.now())) refusals.push(toDuplicateRefusal(item));
    start = output.LastEvaluatedKey;
    if (start === undefined) break;
  }
  return refusals;
}

function toDuplicateRefusal(item: StoredItem): DuplicateRefusal {
  const { original, account, slug, title, content_hash, refused_at } = item as unknown as DuplicateRefusal;
  return { original, account, slug, title, content_hash, refused_at };
}
