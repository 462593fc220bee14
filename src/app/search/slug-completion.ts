// completion/complete for a `slug` argument: the public stories whose slug, slug title part or
// title starts with what was typed, newest first, at most MAX_COMPLETIONS (the MCP spec's cap on
// one answer). A scan of the search index's entries: linear, in memory, no store read.
import { MAX_QUERY_CHARS } from './search-stories.contract.ts';

export const MAX_COMPLETIONS = 100;
/** `YYYY-MM-DD-`: what precedes the title part of a slug. */
const DATE_PREFIX_CHARS = 11;

export interface SlugCompletion {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** A listed story as completion sees it. */
export interface CompletableStory {
  slug: string;
  title: string;
}

export function completeSlugs(stories: readonly CompletableStory[], typed: string): SlugCompletion {
  // Longer than any query search accepts matches nothing a person would type; it is not scanned.
  if (typed.length > MAX_QUERY_CHARS) return { values: [], total: 0, hasMore: false };
  const prefix = typed.trim().toLowerCase();
  const matches = stories.filter(
    (story) =>
      story.slug.startsWith(prefix) ||
      story.slug.slice(DATE_PREFIX_CHARS).startsWith(prefix) ||
      story.title.toLowerCase().startsWith(prefix),
  );
  return {
    values: matches.slice(0, MAX_COMPLETIONS).map((story) => story.slug),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}
