// search_stories, suggest_for_project and the `similar` of a publish answer: full-text search over
// the public feed with MiniSearch (BM25 ranking, prefix and typo matching) rather than hand-rolled
// ranking. The index (story-index.ts) is built in memory from listStories (title, summary, tags,
// stack) and rebuilt at most every `refreshMs`, or on the next search after a write in this
// process changed what is listed (`invalidate`), so an agent finds the story it has just published.
import type { SearchOptions, SearchResult } from 'minisearch';
import type { AppContext } from '../app-context.ts';
import { parseInput } from '../parse-input.ts';
import { MAX_LIST_LIMIT } from '../queries/list-stories.contract.ts';
import { listStories } from '../queries/list-stories.ts';
import type { StorySummary } from '../contract/story-shapes.ts';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.ts';
import { completeSlugs, type SlugCompletion } from './slug-completion.ts';
import { DEFAULT_SEARCH_LIMIT, SEARCH_STORIES_TOOL, searchStoriesInputSchema, type SearchPage } from './search-stories.contract.ts';
import {
  MAX_SUGGESTIONS,
  SUGGEST_FOR_PROJECT_TOOL,
  suggestForProjectInputSchema,
  type Suggestions,
} from './suggest-for-project.contract.ts';
import { findSimilar, type SimilarFinder } from './similar-stories.ts';
import { indexStories, sortByScoreThenNewest, type StoryIndex } from './story-index.ts';
import { contextTerms, whyItMatches } from './suggestion-why.ts';

export interface StorySearch extends SimilarFinder {
  search(raw: unknown): Promise<SearchPage>;
  suggest(raw: unknown): Promise<Suggestions>;
  /** Public slugs starting with what was typed (slug, its title part or the title): completion/complete. */
  completeSlug(typed: string): Promise<SlugCompletion>;
  /** A write in this process changed what is listed: the next search rebuilds the index first. */
  invalidate(): void;
}

export interface StorySearchOptions {
  /** The longest an index is used before the next search rebuilds it (default 5 s). */
  refreshMs?: number;
  now?: () => number;
}

export const DEFAULT_SEARCH_REFRESH_MS = 5000;
/** A bound on the feed pages one rebuild reads (50 stories each). */
const MAX_FEED_PAGES = 400;

interface Snapshot extends StoryIndex {
  generation: number;
  builtAt: number;
}

const SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  // The last word may still be being typed; a longer word may carry a typo.
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  boost: { title: 3, tags: 2, stack: 2, summary: 1 },
};

const SUGGEST_OPTIONS: SearchOptions = {
  combineWith: 'OR',
  prefix: false,
  fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
  boost: { stack: 3, tags: 3, title: 2, summary: 1 },
};

export function createStorySearch(ctx: AppContext, options: StorySearchOptions = {}): StorySearch {
  const refreshMs = options.refreshMs ?? DEFAULT_SEARCH_REFRESH_MS;
  const now = options.now ?? Date.now;
  let generation = 0;
  let snapshot: Snapshot | undefined;
  let building: { generation: number; promise: Promise<Snapshot> } | undefined;

  // One rebuild at a time: concurrent searches share it. A rebuild started before an
  // invalidate may have missed the write, so it does not satisfy searches made after it.
  const current = (): Promise<Snapshot> => {
    if (snapshot !== undefined && snapshot.generation === generation && now() - snapshot.builtAt < refreshMs) {
      return Promise.resolve(snapshot);
    }
    if (building === undefined || building.generation !== generation) {
      const started = { generation, builtAt: now() };
      const promise = buildSnapshot(ctx, started.generation, started.builtAt).then((built) => {
        if (snapshot === undefined || built.generation >= snapshot.generation) snapshot = built;
        return built;
      });
      const entry = { generation: started.generation, promise };
      building = entry;
      const clear = (): void => {
        if (building === entry) building = undefined;
      };
      promise.then(clear, clear);
    }
    return building.promise;
  };

  return {
    async search(raw) {
      const input = parseInput(searchStoriesInputSchema, raw ?? {}, SEARCH_STORIES_TOOL);
      const query = (input.query ?? '').trim().replace(/\s+/g, ' ');
      const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
      const offset = input.cursor === undefined ? 0 : decodeSearchCursor(input.cursor, query);
      const snap = await current();
      const matches = hasWords(query) ? ranked(snap, snap.index.search(query, SEARCH_OPTIONS)) : snap.stories;
      const end = offset + limit;
      return {
        stories: matches.slice(offset, end),
        total: matches.length,
        ...(end < matches.length ? { cursor: encodeSearchCursor(query, end) } : {}),
      };
    },

    async suggest(raw) {
      const input = parseInput(suggestForProjectInputSchema, raw, SUGGEST_FOR_PROJECT_TOOL);
      const terms = contextTerms(input.context);
      if (terms.length === 0) return { suggestions: [] };
      const snap = await current();
      const results = snap.index.search(terms.join(' '), SUGGEST_OPTIONS);
      const top = sortByScoreThenNewest(snap, results).slice(0, MAX_SUGGESTIONS);
      return {
        suggestions: top.flatMap((result) => {
          const entry = snap.bySlug.get(String(result.id));
          return entry === undefined ? [] : [{ story: entry.story, why: whyItMatches(entry.story, result.terms) }];
        }),
      };
    },

    async completeSlug(typed) {
      return completeSlugs((await current()).stories, typed);
    },

    async similar(query) {
      return findSimilar(await current(), query);
    },

    invalidate() {
      generation += 1;
    },
  };
}

const hasWords = (query: string): boolean => /[\p{L}\p{N}]/u.test(query);

function ranked(snap: Snapshot, results: SearchResult[]): StorySummary[] {
  return sortByScoreThenNewest(snap, results).flatMap((result) => {
    const entry = snap.bySlug.get(String(result.id));
    return entry === undefined ? [] : [entry.story];
  });
}

async function buildSnapshot(ctx: AppContext, generation: number, builtAt: number): Promise<Snapshot> {
  const stories: StorySummary[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_FEED_PAGES; page += 1) {
    const list = await listStories(ctx, undefined, cursor === undefined ? { limit: MAX_LIST_LIMIT } : { limit: MAX_LIST_LIMIT, cursor });
    stories.push(...list.stories);
    cursor = list.cursor;
    if (cursor === undefined) break;
  }
  return { generation, builtAt, ...indexStories(stories) };
}
