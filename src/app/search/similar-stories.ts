// The `similar` of a publish answer: up to three listed stories ranked by the published story's
// title, tags, stack and summary against the in-memory index (one search, no feed read of its
// own). Never the story itself; for a fail story only successes, as stories that may answer it.
// A story is similar when it shares a tag or stack entry, or at least two words: one common word
// ("never", "error") alone would make nearly every story similar to every other.
import type { SearchOptions, SearchResult } from 'minisearch';
import { relationTo, type RelatedStory } from '../../domain/story/story-relation.ts';
import type { StoryType } from '../../domain/story/story-types.ts';
import { MAX_SIMILAR } from '../publish-story.contract.ts';
import { sortByScoreThenNewest, type StoryIndex } from './story-index.ts';
import { contextTerms, whyItMatches } from './suggestion-why.ts';

/** The story being published, as far as ranking goes. */
export interface SimilarQuery {
  slug: string;
  type: StoryType;
  title: string;
  tags: readonly string[];
  stack: readonly string[];
  summary: string;
}

export interface SimilarFinder {
  similar(query: SimilarQuery): Promise<RelatedStory[]>;
}

// Any shared word counts (OR); the story's stack and tags say most about what it is about.
const SIMILAR_OPTIONS: SearchOptions = {
  combineWith: 'OR',
  prefix: false,
  fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
  boost: { stack: 3, tags: 3, title: 2, summary: 1 },
};

export function findSimilar(indexed: StoryIndex, query: SimilarQuery): RelatedStory[] {
  // Title first: the words past contextTerms' cap are the summary's last ones.
  const terms = contextTerms([query.title, ...query.tags, ...query.stack, query.summary].join(' '));
  if (terms.length === 0) return [];
  const related: RelatedStory[] = [];
  for (const result of sortByScoreThenNewest(indexed, indexed.index.search(terms.join(' '), SIMILAR_OPTIONS))) {
    const story = indexed.bySlug.get(String(result.id))?.story;
    if (story === undefined || story.slug === query.slug || !sharesEnough(result)) continue;
    const relation = relationTo(query.type, story.type);
    if (relation === undefined) continue;
    related.push({
      slug: story.slug,
      title: story.title,
      type: story.type,
      status: story.status,
      relation,
      why: whyItMatches(story, result.terms),
    });
    if (related.length === MAX_SIMILAR) break;
  }
  return related;
}

const TOPIC_FIELDS = new Set(['tags', 'stack']);

function sharesEnough(result: SearchResult): boolean {
  if (result.queryTerms.length >= 2) return true;
  return Object.values(result.match).some((fields) => fields.some((field) => TOPIC_FIELDS.has(field)));
}
