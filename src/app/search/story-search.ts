// search_stories, suggest_for_project and the `similar` of a publish answer: full-text search over
// the listed stories with MiniSearch (BM25 ranking, AND for several words, prefix and typo
// matching), on this instance's live index (live-story-index.ts: a snapshot plus the change log,
// never a read of the whole feed). Every answer is hydrated from the table for the page it
// returns (search-hydrate.ts), so what a story shows is what it is now.
import type { SearchSnapshots } from '../../store/search/search-snapshots.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import type { IndexAnswers } from './index-answers.ts';
import { localIndexAnswers } from './local-index-answers.ts';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.ts';
import { hydrateSummaries } from './search-hydrate.ts';
import { DEFAULT_SEARCH_REFRESH_MS } from './search-refresh.ts';
import { DEFAULT_SEARCH_LIMIT, SEARCH_STORIES_TOOL, type SearchPage, searchStoriesInputSchema } from './search-stories.contract.ts';
import { presentSimilar, type SimilarFinder } from './similar-stories.ts';
import type { SlugCompletion } from './slug-completion.ts';
import {
  MAX_SUGGESTIONS,
  SUGGEST_FOR_PROJECT_TOOL,
  type Suggestions,
  suggestForProjectInputSchema,
} from './suggest-for-project.contract.ts';
import { contextTerms, whyItMatches } from './suggestion-why.ts';

/**
 * Every question takes `caller`'s turn at the index (the CPU caller, `account:…` or `ip:…`;
 * cpu-slots.ts): one question at a time, in turn among callers, refused as `rate_limited` when
 * the caller's share or the queue is full or no turn came in time. No caller: the process's own.
 * `signal`: the caller's request; a question still waiting for its turn when it ends is withdrawn.
 */
export interface StorySearch extends SimilarFinder {
  search(raw: unknown, caller?: string, signal?: AbortSignal): Promise<SearchPage>;
  suggest(raw: unknown, caller?: string, signal?: AbortSignal): Promise<Suggestions>;
  /** Public slugs starting with what was typed (slug, its title part or the title): completion/complete. */
  completeSlug(typed: string, caller?: string, signal?: AbortSignal): Promise<SlugCompletion>;
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
  /**
   * Where the index answers (default: an index held in this thread, built from the options
   * above); `npm start` passes its index thread (src/cli/search-index-in-thread.ts).
   */
  answers?: IndexAnswers;
}

/** Rounds of hydration that refill a page whose stories turned out unlisted since the index saw them. */
const MAX_FILL_ROUNDS = 3;
/** Ranked candidates hydrated for the few suggestions an answer carries. */
const SUGGESTION_CANDIDATES = 10;
/** The longest the process's own question (no caller) waits for its turn; a caller's waits the queue's bound. */
const PROCESS_QUESTION_WAIT_MS = 60_000;

export function createStorySearch(ctx: AppContext, options: StorySearchOptions = {}): StorySearch {
  const snapshots = options.snapshots ?? ctx.searchSnapshots;
  const answers =
    options.answers ??
    localIndexAnswers(ctx, {
      snapshots,
      refreshMs: options.refreshMs ?? DEFAULT_SEARCH_REFRESH_MS,
      now: options.now ?? Date.now,
      ...(options.log === undefined ? {} : { log: options.log }),
    });

  const turns = ctx.cpu?.search;
  /** A question to the index in `caller`'s turn; hydrating its answer from the table takes no turn. */
  const ask = <T>(caller: string | undefined, signal: AbortSignal | undefined, question: () => Promise<T>): Promise<T> =>
    turns === undefined ? question() : turns.run(caller, PROCESS_QUESTION_WAIT_MS, question, { signal });

  /** Hydrates the window's slugs from its start until `limit` listed stories or its end; how many it used. */
  const page = async (window: readonly string[], limit: number) => {
    const stories = [];
    let used = 0;
    for (let round = 0; round < MAX_FILL_ROUNDS && stories.length < limit && used < window.length; round += 1) {
      const slice = window.slice(used, used + limit - stories.length);
      used += slice.length;
      const hydrated = await hydrateSummaries(ctx, slice);
      stories.push(...hydrated.stories);
      // The log will say so soon; re-reading them now keeps the next page from showing them.
      for (const slug of hydrated.unlisted) answers.touch(slug);
    }
    return { stories, used };
  };

  return {
    async search(raw, caller, signal) {
      const input = parseInput(searchStoriesInputSchema, raw ?? {}, SEARCH_STORIES_TOOL);
      const query = (input.query ?? '').trim().replace(/\s+/g, ' ');
      const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
      const offset = input.cursor === undefined ? 0 : decodeSearchCursor(input.cursor, query);
      // Every round of refilling takes at most `limit` more: the window holds all a page can use.
      const ranked = await ask(caller, signal, () => answers.rank(query, offset, limit * MAX_FILL_ROUNDS));
      const { stories, used } = await page(ranked.slugs, limit);
      const end = offset + used;
      return {
        stories,
        total: ranked.total,
        ...(end < ranked.total ? { cursor: encodeSearchCursor(query, end) } : {}),
      };
    },

    async suggest(raw, caller, signal) {
      const input = parseInput(suggestForProjectInputSchema, raw, SUGGEST_FOR_PROJECT_TOOL);
      const terms = contextTerms(input.context);
      if (terms.length === 0) return { suggestions: [] };
      const top = await ask(caller, signal, () => answers.suggest(terms, SUGGESTION_CANDIDATES));
      const { stories } = await hydrateSummaries(
        ctx,
        top.map((result) => result.slug),
      );
      const matched = new Map(top.map((result) => [result.slug, result.terms]));
      return {
        suggestions: stories.slice(0, MAX_SUGGESTIONS).map((story) => ({ story, why: whyItMatches(story, matched.get(story.slug) ?? []) })),
      };
    },

    completeSlug: (typed, caller, signal): Promise<SlugCompletion> => ask(caller, signal, () => answers.completeSlug(typed)),

    async similar(query, caller, signal) {
      const candidates = await ask(caller, signal, () => answers.similar(query));
      return presentSimilar(query, candidates, async (slugs) => (await hydrateSummaries(ctx, slugs)).stories);
    },

    invalidate(slug) {
      if (slug === undefined) answers.forget();
      else answers.touch(slug);
    },
  };
}
