// What a search asks of an instance's index, answered where the index lives: in the thread that
// serves requests (a Lambda container, one request at a time; the tests), or in a thread of its
// own under `npm start` (src/cli/search-index-in-thread.ts), so the thread serving requests never
// loads, holds or collects a whole index (docs/design.md#search). Only slugs and the words that
// matched cross; story-search.ts hydrates every answer from the table.
import type { SimilarQuery } from './similar-stories.ts';
import type { SlugCompletion } from './slug-completion.ts';
import type { MatchedSlug } from './story-index.ts';

/** A window of a ranking: the slugs from an offset, and how many stories match in all. */
export interface RankedWindow {
  slugs: string[];
  total: number;
}

export interface IndexAnswers {
  /** search_stories' ranking of the query (newest first for one with no words): `count` slugs from `offset`. */
  rank(query: string, offset: number, count: number): Promise<RankedWindow>;
  /** suggest_for_project's best `count` matches of the context's words. */
  suggest(terms: readonly string[], count: number): Promise<MatchedSlug[]>;
  /** A publish's candidates for `similar`, best first. */
  similar(query: SimilarQuery): Promise<MatchedSlug[]>;
  /** completion/complete for a slug argument. */
  completeSlug(typed: string): Promise<SlugCompletion>;
  /** This process changed the story: the next answer re-reads it first. */
  touch(slug: string): void;
  /** The next answer loads the index again, as a cold start would. */
  forget(): void;
}
