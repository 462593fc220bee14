// One sitemap part: the public stories of one feed month's slice (oldest first) and the pages of
// the people who wrote them, each author once per part. Keys from a key-ordered Query on the feed
// index, then only the few META attributes a link needs; a story hidden or made private since its
// index entry was read is dropped here, as every list drops it.
import { LorebookError } from '../../domain/errors.ts';
import { feedMonthEntries } from '../../store/story/feed-month-keys.ts';
import { type ListingFacts, readListingFacts } from '../../store/story/listing-facts.ts';
import { isListedPublicly } from '../../store/story/story-items.ts';
import { handlesFor } from '../account/accounts.ts';
import type { AppContext } from '../context/app-context.ts';
import { type SitemapPartRef, storiesPerPart } from './sitemap-parts.ts';

export interface SitemapLink {
  /** A slug for a story, a handle for an author. */
  name: string;
  /** The newest of published_at and updated_at over what the link shows. */
  lastmod: string;
}

export interface SitemapPart {
  stories: SitemapLink[];
  authors: SitemapLink[];
}

export const noSuchSitemapPart = (ref: SitemapPartRef): LorebookError =>
  new LorebookError('not_found', `There is no sitemap part ${ref.part} for ${ref.month}. /sitemap.xml lists the parts there are.`, {
    details: { month: ref.month, part: ref.part },
  });

const newest = (a: string, b: string): string => (a > b ? a : b);
const lastmodOf = (facts: ListingFacts): string => newest(facts.published_at, facts.updated_at);

export async function readSitemapPart(ctx: AppContext, ref: SitemapPartRef, maxUrls: number): Promise<SitemapPart> {
  const perPart = storiesPerPart(maxUrls);
  const entries = await feedMonthEntries(ctx.store, ref.month, { skip: (ref.part - 1) * perPart, take: perPart });
  if (entries.length === 0) throw noSuchSitemapPart(ref);
  const facts = (
    await readListingFacts(
      ctx.store,
      entries.map((entry) => entry.key),
    )
  ).filter((story) => isListedPublicly(story.visibility, story.hidden));

  const newestByAuthor = new Map<string, string>();
  for (const story of facts) newestByAuthor.set(story.author, newest(newestByAuthor.get(story.author) ?? '', lastmodOf(story)));
  const handles = await handlesFor(ctx, newestByAuthor.keys());
  // Two accounts never share a handle at one moment, but a handle taken over between reads could
  // name two: one link, with the newer lastmod.
  const byHandle = new Map<string, string>();
  for (const [author, lastmod] of newestByAuthor) {
    const handle = handles.get(author) ?? author;
    byHandle.set(handle, newest(byHandle.get(handle) ?? '', lastmod));
  }
  return {
    stories: facts.map((story) => ({ name: story.slug, lastmod: lastmodOf(story) })),
    authors: [...byHandle].sort(([a], [b]) => a.localeCompare(b)).map(([name, lastmod]) => ({ name, lastmod })),
  };
}
