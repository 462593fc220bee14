// The search as one caller asks it (story-search.ts): each question takes that caller's turn at
// the index (cpu-slots.ts), and is withdrawn if the caller's request ends while it waits. A
// module of its own, with types only, so the routes that bind the caller do not load the search
// engine before the first search (lazy-story-search.ts).
import type { StorySearch } from './story-search.ts';

export function searchAs(search: StorySearch, caller: string | undefined, signal?: AbortSignal): StorySearch {
  return {
    search: (raw) => search.search(raw, caller, signal),
    suggest: (raw) => search.suggest(raw, caller, signal),
    similar: (query) => search.similar(query, caller, signal),
    completeSlug: (typed) => search.completeSlug(typed, caller, signal),
    invalidate: (slug) => search.invalidate(slug),
  };
}
