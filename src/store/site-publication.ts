// The site's standard.site publication as the announcer last wrote it (docs/design.md#standard-site): what
// `/.well-known/site.standard.publication` answers. Written only when it differs from what is
// stored (a Put of the whole item: its value is a pure function of the publication record), so
// every process and every retry converges on the one item.
import { publicationKey } from './keys.ts';
import { readItem } from './read-items.ts';
import { replaceItem } from './replace-by-key.ts';
import { writeAtomically } from './run-write.ts';
import type { Store } from './store.ts';

export interface StoredPublication {
  /** The publication record's at-uri. */
  uri: string;
  cid: string;
  /** The site URL it was written for. */
  url: string;
}

export async function readPublication(store: Store): Promise<StoredPublication | undefined> {
  const item = await readItem(store, publicationKey);
  if (item === undefined || typeof item.uri !== 'string') return undefined;
  return { uri: item.uri, cid: String(item.cid), url: String(item.url) };
}

export async function recordPublication(store: Store, publication: StoredPublication): Promise<void> {
  const stored = await readPublication(store);
  if (stored?.uri === publication.uri && stored.cid === publication.cid && stored.url === publication.url) return;
  await writeAtomically(store, [replaceItem({ ...publicationKey, ...publication })]);
}
