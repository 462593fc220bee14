// The few META attributes a list of links needs (the sitemap): whose story, when, and whether it
// is still public. A projected BatchGetItem: META carries the reproducer set (up to ~320 KB at
// the cap), which a link never needs, and a few batches in flight at once, because a sitemap
// part hydrates up to tens of thousands of stories.
import { type ItemKey, keyId } from '../keys.ts';
import { readItems } from '../read-items.ts';
import type { Store } from '../store.ts';

export interface ListingFacts {
  slug: string;
  author: string;
  published_at: string;
  updated_at: string;
  visibility: string;
  hidden: boolean;
}

/** Batches in flight at once: enough to overlap round trips, few enough not to throttle a table. */
const BATCHES_IN_FLIGHT = 4;

const ATTRIBUTES = ['PK', 'SK', 'slug', 'author', 'published_at', 'updated_at', 'visibility', 'hidden', 'expires_at'] as const;

/** The facts of each key's story in the keys' order; gone or expired stories drop out. */
export async function readListingFacts(store: Store, keys: readonly ItemKey[]): Promise<ListingFacts[]> {
  const byKey = await readItems(store, keys, { attributes: ATTRIBUTES, batchesInFlight: BATCHES_IN_FLIGHT });
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
