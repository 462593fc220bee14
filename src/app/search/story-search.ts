// search_stories, suggest_for_project and the `similar` of a publish answer: full-text search over
// the listed stories with MiniSearch (BM25 ranking, AND for several words, prefix and typo
// matching), on this instance's live index (live-story-index.ts: a snapshot plus the change log,
// never a read of the whole feed). Every answer is hydrated from the table for the page it
// returns (search-hydrate.ts), so what a story shows is what it is now.
import type { SearchOptions } from 'minisearch';
import type { SearchSnapshots } from '../../store/search/search-snapshots.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import { createLiveIndex } from './live-story-index.ts';
import { MAX_TYPO_EDITS, planQuery, planSearchOptions, typoEdits } from './query-plan.ts';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.ts';
import { hydrateSummaries } from './search-hydrate.ts';
import { DEFAULT_SEARCH_REFRESH_MS } from './search-refresh.ts';
import { DEFAULT_SEARCH_LIMIT, SEARCH_STORIES_TOOL, type SearchPage, searchStoriesInputSchema } from './search-stories.contract.ts';
import { findSimilar, type SimilarFinder } from './similar-stories.ts';
import { completeSlugs, type SlugCompletion } from './slug-completion.ts';
import type { RankedSlug, StoryIndex } from './story-index.ts';
import {
  MAX_SUGGESTIONS,
  SUGGEST_FOR_PROJECT_TOOL,
  type Suggestions,
  suggestForProjectInputSchema,
} from './suggest-for-project.contract.ts';
import { contextTerms, whyItMatches } from './suggestion-why.ts';
import { TOPIC_FIELDS_ONLY } from './topic-fields.ts';

export interface StorySearch extends SimilarFinder {
  search(raw: unknown): Promise<SearchPage>;
  suggest(raw: unknown): Promise<Suggestions>;
  /** Public slugs starting with what was typed (slug, its title part or the title): completion/complete. */
  completeSlug(typed: string): Promise<SlugCompletion>;
  /**
   * A write in this process changed the story: the next search re-reads it first. Without a
   * slug (stories written behind the search's back, as tests do): the next search loads the
   * index again, as a cold start would.
   */
  invalidate(slug?: string): void;
}

export interface StorySearchOptions {
  /** The longest a search answers without reading the change log first (default 1 s). */
  refreshMs?: number;
  /** Where index snapshots are (default: the context's); absent, the index is built from the feed at cold start. */
  snapshots?: SearchSnapshots;
  now?: () => number;
  log?: (line: string) => void;
}

/** Rounds of hydration that refill a page whose stories turned out unlisted since the index saw them. */
const MAX_FILL_ROUNDS = 3;
/** Ranked candidates hydrated for the few suggestions an answer carries. */
const SUGGESTION_CANDIDATES = 10;

/** search_stories' ranking; the query plan (rankForQuery) decides the prefix and bounds the typos. */
export const SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  // A longer word may carry a typo; the last word may still be being typed (query-plan.ts).
  fuzzy: (term) => typoEdits(term) || false,
  boost: { title: 3, tags: 2, stack: 2, summary: 1, body: 1 },
};

/** search_stories' ranking of a query, within the bounds of its plan (query-plan.ts); the bench ranks with exactly this. */
export function rankForQuery(index: StoryIndex, query: string): RankedSlug[] {
  const planned = planSearchOptions(planQuery(query, index.stats), SEARCH_OPTIONS);
  return index.search(planned.query, planned.options);
}

// A project description is up to 64 words ORed: against bodies nearly every story would match.
const SUGGEST_OPTIONS: SearchOptions = {
  ...TOPIC_FIELDS_ONLY,
  combineWith: 'OR',
  prefix: false,
  fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
  maxFuzzy: MAX_TYPO_EDITS,
  boost: { stack: 3, tags: 3, title: 2, summary: 1 },
};

export function createStorySearch(ctx: AppContext, options: StorySearchOptions = {}): StorySearch {
  const snapshots = options.snapshots ?? ctx.searchSnapshots;
  const live = createLiveIndex(ctx, {
    snapshots,
    refreshMs: options.refreshMs ?? DEFAULT_SEARCH_REFRESH_MS,
    now: options.now ?? Date.now,
    ...(options.log === undefined ? {} : { log: options.log }),
  });

  /** Hydrates ranked slugs from `offset` until `limit` listed stories or the end; where it stopped. */
  const page = async (ranked: readonly string[], offset: number, limit: number) => {
    const stories = [];
    let end = offset;
    for (let round = 0; round < MAX_FILL_ROUNDS && stories.length < limit && end < ranked.length; round += 1) {
      const slice = ranked.slice(end, end + limit - stories.length);
      end += slice.length;
      const hydrated = await hydrateSummaries(ctx, slice);
      stories.push(...hydrated.stories);
      // The log will say so soon; re-reading them now keeps the next page from showing them.
      for (const slug of hydrated.unlisted) live.touch(slug);
    }
    return { stories, end };
  };

  return {
    async search(raw) {
      const input = parseInput(searchStoriesInputSchema, raw ?? {}, SEARCH_STORIES_TOOL);
      const query = (input.query ?? '').trim().replace(/\s+/g, ' ');
      const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
      const offset = input.cursor === undefined ? 0 : decodeSearchCursor(input.cursor, query);
      const index = await live.current();
      const ranked = hasWords(query) ? rankForQuery(index, query).map((result) => result.slug) : index.newestFirst();
      const { stories, end } = await page(ranked, offset, limit);
      return {
        stories,
        total: ranked.length,
        ...(end < ranked.length ? { cursor: encodeSearchCursor(query, end) } : {}),
      };
    },

    async suggest(raw) {
      const input = parseInput(suggestForProjectInputSchema, raw, SUGGEST_FOR_PROJECT_TOOL);
      const terms = contextTerms(input.context);
      if (terms.length === 0) return { suggestions: [] };
      const index = await live.current();
      const top = index.search(terms.join(' '), SUGGEST_OPTIONS).slice(0, SUGGESTION_CANDIDATES);
      const { stories } = await hydrateSummaries(
        ctx,
        top.map((result) => result.slug),
      );
      const matched = new Map(top.map((result) => [result.slug, result.terms]));
      return {
        suggestions: stories.slice(0, MAX_SUGGESTIONS).map((story) => ({ story, why: whyItMatches(story, matched.get(story.slug) ?? []) })),
      };
    },

    async completeSlug(typed) {
      const index = await live.current();
      return completeSlugs(
        index.newestFirst().map((slug) => ({ slug, title: index.entry(slug)?.title ?? '' })),
        typed,
      );
    },

    async similar(query) {
      return findSimilar(await live.current(), query, async (slugs) => (await hydrateSummaries(ctx, slugs)).stories);
    },

    invalidate(slug) {
      if (slug === undefined) live.forget();
      else live.touch(slug);
    },
  };
}

const hasWords = (query: string): boolean => /[\p{L}\p{N}]/u.test(query);
