// How the index ranks each kind of search (docs/design.md#search): search_stories (planned so no
// query costs more than about two passes, query-plan.ts), and suggest_for_project and `similar`
// (topics only, any shared word of the rarest within one pass). Read where the index lives
// (index-answers.ts); the benches rank with exactly this.
import type { SearchOptions } from 'minisearch';
import { planQuery, planSearchOptions, planTopicQuery } from './query-plan.ts';
import type { RankedSlug, StoryIndex } from './story-index.ts';
import { TOPIC_FIELDS, TOPIC_FIELDS_ONLY } from './topic-fields.ts';

/**
 * search_stories' ranking. The typos and the prefix are the plan's (rankForQuery: a longer word
 * may carry a typo, the last word may still be being typed; query-plan.ts).
 */
export const SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  boost: { title: 3, tags: 2, stack: 2, summary: 1, body: 1 },
};

/** search_stories' ranking of a query, within the bounds of its plan (query-plan.ts). */
export function rankForQuery(index: StoryIndex, query: string): RankedSlug[] {
  const planned = planSearchOptions(planQuery(query, index.stats), SEARCH_OPTIONS);
  return index.search(planned.query, planned.options);
}

/**
 * suggest_for_project's and a publish's `similar`: topics only (title, summary, tags, stack), any
 * shared word (OR), the stack and tags first. A project description is up to 64 words ORed:
 * against bodies nearly every story would match. The typos and the prefix are the plan's
 * (planTopicQuery: typos by topicTypoEdits, no prefix).
 */
const TOPIC_OPTIONS: SearchOptions = {
  ...TOPIC_FIELDS_ONLY,
  combineWith: 'OR',
  boost: { stack: 3, tags: 3, title: 2, summary: 1 },
};

/** suggest_for_project's and `similar`'s ranking of up to 64 words, within the bounds of their plan (query-plan.ts). */
export function rankForTopics(index: StoryIndex, terms: readonly string[]): RankedSlug[] {
  const planned = planSearchOptions(planTopicQuery(terms, index.stats, TOPIC_FIELDS), TOPIC_OPTIONS);
  return index.search(planned.query, planned.options);
}

/** A query with no letter or digit lists the index newest first instead of ranking. */
export const hasWords = (query: string): boolean => /[\p{L}\p{N}]/u.test(query);
