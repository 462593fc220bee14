// What the search index needs of a story, read as it is now: META's indexed fields and BODY's
// markdown, in one projected BatchGetItem per 50 stories (two keys each). A story that is gone,
// expired, private or hidden reads as not listed, which is all the index needs to drop it.
import { bodyKey, storyKey } from '../keys.ts';
import { pick, readItems } from '../read-items.ts';
import type { Store } from '../store.ts';
import { isListedPublicly } from '../story/story-items.ts';

export interface SearchableStory {
  slug: string;
  title: string;
  summary: string;
  tags: string[];
  stack: string[];
  /** The whole current markdown; the index keeps a bounded prefix of it. */
  markdown: string;
  type: string;
  published_at: string;
}

/** Batches in flight at once: a first build reads every listed story. */
const BATCHES_IN_FLIGHT = 4;

const ATTRIBUTES = [
  'PK',
  'SK',
  'expires_at',
  'title',
  'summary',
  'tags',
  'stack',
  'type',
  'published_at',
  'visibility',
  'hidden',
  'markdown',
] as const;

/** Each slug's searchable story, or undefined for one that is not listed now. */
export async function readSearchableStories(store: Store, slugs: readonly string[]): Promise<Map<string, SearchableStory | undefined>> {
  const unique = [...new Set(slugs)];
  const items = await readItems(
    store,
    unique.flatMap((slug) => [storyKey(slug), bodyKey(slug)]),
    { attributes: ATTRIBUTES, batchesInFlight: BATCHES_IN_FLIGHT },
  );
  const found = new Map<string, SearchableStory | undefined>();
  for (const slug of unique) {
    const meta = pick(items, storyKey(slug));
    const body = pick(items, bodyKey(slug));
    const listed = meta !== undefined && isListedPublicly(String(meta.visibility), meta.hidden === true);
    found.set(
      slug,
      listed
        ? {
            slug,
            title: String(meta.title),
            summary: String(meta.summary),
            tags: (meta.tags as string[] | undefined) ?? [],
            stack: (meta.stack as string[] | undefined) ?? [],
            markdown: typeof body?.markdown === 'string' ? body.markdown : '',
            type: String(meta.type),
            published_at: String(meta.published_at),
          }
        : undefined,
    );
  }
  return found;
}
