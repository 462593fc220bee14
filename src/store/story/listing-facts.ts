// The few META attributes a list of links needs (the sitemap): whose story, when, and whether it
// is still public. A projected BatchGetItem: META carries the reproducer set (up to ~320 KB at
// the cap), which a link never needs, and a few batches in flight at once, because a sitemap
// part hydrates up to tens of thousands of stories.
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { keyId, type ItemKey } from '../keys.ts';
import { callStore, storeUnavailable } from '../store-unavailable.ts';
import { isExpired, type Store } from '../store.ts';

export interface ListingFacts {
  slug: string;
  author: string;
  published_at: string;
  updated_at: string;
  visibility: string;
  hidden: boolean;
}

/** BatchGetItem takes at most 100 keys. */
const MAX_BATCH_KEYS = 100;
/** Batches in flight at once: enough to overlap round trips, few enough not to throttle a table. */
const BATCHES_IN_FLIGHT = 4;
/** Unprocessed keys come back under throttling; retry them a bounded number of times. */
const MAX_UNPROCESSED_ROUNDS = 5;

const ATTRIBUTES = ['PK', 'SK', 'slug', 'author', 'published_at', 'updated_at', 'visibility', 'hidden', 'expires_at'] as const;
const PROJECTION = {
  ProjectionExpression: ATTRIBUTES.map((_name, index) => `#a${index}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(ATTRIBUTES.map((name, index) => [`#a${index}`, name])),
};

async function readBatch(store: Store, keys: readonly ItemKey[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending = keys;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round === MAX_UNPROCESSED_ROUNDS) throw storeUnavailable({ name: 'ThrottlingException' }) as Error;
    const output = await callStore(() =>
      store.client.send(
        new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: [...pending], ConsistentRead: true, ...PROJECTION } } }),
      ),
    );
    found.push(...((output.Responses?.[store.tableName] ?? []) as Record<string, unknown>[]));
    pending = (output.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as ItemKey[];
  }
  return found;
}

/** The facts of each key's story in the keys' order; gone or expired stories drop out. */
export async function readListingFacts(store: Store, keys: readonly ItemKey[]): Promise<ListingFacts[]> {
  const batches: ItemKey[][] = [];
  for (let start = 0; start < keys.length; start += MAX_BATCH_KEYS) batches.push(keys.slice(start, start + MAX_BATCH_KEYS));
  const byKey = new Map<string, Record<string, unknown>>();
  for (let next = 0; next < batches.length; next += BATCHES_IN_FLIGHT) {
    const items = await Promise.all(batches.slice(next, next + BATCHES_IN_FLIGHT).map((batch) => readBatch(store, batch)));
    for (const item of items.flat()) if (!isExpired(item, store.now())) byKey.set(keyId(item as unknown as ItemKey), item);
  }
  return keys.flatMap((key) => {
    const item = byKey.get(keyId(key));
    if (item === undefined) return [];
    return [
      {
        slug: String(item.slug),
        author: String(item.author),
        published_at: String(item.published_at),
        updated_at: String(item.updated_at ?? item.published_at),
        visibility: String(item.visibility),
        hidden: item.hidden === true,
      },
    ];
  });
}
