// The reads a redaction's steps make (docs/design.md#redaction-export): the revisions of a story below a number
// that still hold markdown, a page at a time, and every stored text that names one of a few
// images — a Scan, because a story may name any image URL and no index maps an image to the
// texts that name it.
import { QueryCommand, type QueryCommandInput, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from '../actions.ts';
import { revisionKey, revisionPrefix, storyKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

/** Each page is one strip transaction: 99 revisions and the event's image set. */
export const STRIP_PAGE = 99;

export function revisionsToStripParams(tableName: string, slug: string, below: number): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
    FilterExpression: 'attribute_exists(#markdown)',
    ProjectionExpression: 'PK, SK, #markdown',
    ExpressionAttributeNames: { '#markdown': 'markdown' },
    ExpressionAttributeValues: { ':pk': storyKey(slug).PK, ':first': `${revisionPrefix}`, ':last': revisionKey(slug, below - 1).SK },
    ConsistentRead: true,
    Limit: STRIP_PAGE,
  };
}

/**
 * The next revisions below `below` that still hold markdown, at most 99, oldest first. A revision
 * stripped no longer matches, so each call starts again from the first and finds what is left:
 * nothing to resume but the table itself.
 */
export async function revisionsToStrip(store: Store, slug: string, below: number): Promise<StoredItem[]> {
  if (below <= 1) return [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const params = {
      ...revisionsToStripParams(store.tableName, slug, below),
      ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
    };
    const output = await callStore(() => store.client.send(new QueryCommand(params)));
    const items = (output.Items ?? []) as StoredItem[];
    if (items.length > 0) return items;
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
  return [];
}

export function textsNamingParams(tableName: string, sha256s: readonly string[], startKey?: Record<string, unknown>): ScanCommandInput {
  const values = Object.fromEntries(sha256s.map((sha256, index) => [`:i${index}`, sha256]));
  return {
    TableName: tableName,
    FilterExpression: sha256s.map((_, index) => `contains(#markdown, :i${index})`).join(' OR '),
    ProjectionExpression: 'PK, SK, #markdown',
    ExpressionAttributeNames: { '#markdown': 'markdown' },
    ExpressionAttributeValues: values,
    ConsistentRead: true,
    ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
  };
}

/** The images of `sha256s` that some stored text (a story's BODY, a kept revision, a draft) still names. */
export async function imagesStillNamed(store: Store, sha256s: readonly string[]): Promise<Set<string>> {
  const named = new Set<string>();
  if (sha256s.length === 0) return named;
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await callStore(() => store.client.send(new ScanCommand(textsNamingParams(store.tableName, sha256s, startKey))));
    for (const item of (output.Items ?? []) as StoredItem[]) {
      const markdown = String(item.markdown ?? '');
      for (const sha256 of sha256s) if (markdown.includes(sha256)) named.add(sha256);
    }
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
  return named;
}
