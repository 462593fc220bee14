// The search as a process serves it before its first search: the engine (MiniSearch, the index,
// the query plan) is loaded on the first call that needs it, so a cold start that serves only
// writes, reads of one story or pages never loads it (the http function's start-up budget,
// docs/deploy.md "Split into chunks"). Writes this process makes meanwhile are remembered and
// handed over, so the first search still finds what this process just wrote.
import type { StorySearch } from './story-search.ts';

export function lazyStorySearch(load: () => Promise<StorySearch>): StorySearch {
  let loading: Promise<StorySearch> | undefined;
  let loaded: StorySearch | undefined;
  const touched = new Set<string>();
  const engine = (): Promise<StorySearch> => {
    loading ??= load().then(
      (search) => {
        for (const slug of touched) search.invalidate(slug);
        touched.clear();
        loaded = search;
        return search;
      },
      (error: unknown) => {
        // A failed load (a chunk not read) is tried again by the next call.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    search: async (raw, caller, signal) => (await engine()).search(raw, caller, signal),
    suggest: async (raw, caller, signal) => (await engine()).suggest(raw, caller, signal),
    similar: async (query, caller, signal) => (await engine()).similar(query, caller, signal),
    completeSlug: async (typed, caller, signal) => (await engine()).completeSlug(typed, caller, signal),
    invalidate(slug) {
      if (loaded !== undefined) loaded.invalidate(slug);
      // Not loaded yet: its first load reads the index afresh, so only single stories need remembering.
      else if (slug !== undefined) touched.add(slug);
    },
  };
}
