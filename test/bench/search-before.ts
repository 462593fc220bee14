// The reference the search bench sets the built index against: search as it was before issue 18,
// kept here (as sitemap-before.ts keeps the old sitemap) because src/ no longer has it. Each
// instance rebuilt a MiniSearch index of the whole feed's summaries (title, summary, tags and
// stack, no body) at most every 5 s; this is that rebuild, without the feed read that preceded it.
import MiniSearch, { type SearchOptions } from 'minisearch';
import { normaliseTerm } from '../../src/app/search/suggestion-why.ts';

export interface SummaryToIndex {
  slug: string;
  title: string;
  summary: string;
  tags: string[];
  stack: string[];
}

interface IndexedSummary {
  id: string;
  title: string;
  summary: string;
  tags: string;
  stack: string;
}

export const BEFORE_SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  boost: { title: 3, tags: 2, stack: 2, summary: 1 },
};

/** The whole-feed rebuild as it was: one index of every summary, a story listed twice indexed once. */
export function rebuildBefore(listed: readonly SummaryToIndex[]): MiniSearch<IndexedSummary> {
  const index = new MiniSearch<IndexedSummary>({ fields: ['title', 'summary', 'tags', 'stack'], processTerm: normaliseTerm });
  const seen = new Set<string>();
  for (const story of listed) {
    if (seen.has(story.slug)) continue;
    seen.add(story.slug);
    index.add({ id: story.slug, title: story.title, summary: story.summary, tags: story.tags.join(' '), stack: story.stack.join(' ') });
  }
  return index;
}
