// The `similar` of a publish answer: up to three listed stories ranked by the published story's
// title, tags, stack and summary against the search index (one search, then one hydration of the
// few candidates, no feed read). Never the story itself; for a fail story only successes, as
// stories that may answer it. A story is similar when it shares a tag or stack entry, or at least
// two words: one common word ("never", "error") alone would make nearly every story similar.
import { type RelatedStory, relationTo } from '../../domain/story/story-relation.ts';
import type { StoryType } from '../../domain/story/story-types.ts';
import type { StorySummary } from '../contract/story-shapes.ts';
import { MAX_SIMILAR } from '../publish-story.contract.ts';
import { rankForTopics } from './search-ranking.ts';
import type { MatchedSlug, RankedSlug, StoryIndex } from './story-index.ts';
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
  /**
   * `caller`: whose turn at the index the question takes (the CPU caller, cpu-slots.ts); none for
   * the process's own. `signal`: the caller's request, whose end withdraws a question still waiting.
   */
  similar(query: SimilarQuery, caller?: string, signal?: AbortSignal): Promise<RelatedStory[]>;
}

/** Candidates hydrated: a few more than answered, for those unlisted since the index saw them. */
const CANDIDATES = MAX_SIMILAR * 3;

/** The listed ones of the slugs as they are now, in the slugs' order (search-hydrate.ts reads them from the table). */
export type Hydrate = (slugs: readonly string[]) => Promise<readonly StorySummary[]>;

/** The stories that may be similar, best first: read where the index lives (index-answers.ts). */
export function similarCandidates(index: StoryIndex, query: SimilarQuery): MatchedSlug[] {
  // Title first: the words past contextTerms' cap are the summary's last ones.
  const terms = contextTerms([query.title, ...query.tags, ...query.stack, query.summary].join(' '));
  if (terms.length === 0) return [];
  const candidates: MatchedSlug[] = [];
  for (const result of rankForTopics(index, terms)) {
    const type = index.entry(result.slug)?.type;
    if (result.slug === query.slug || type === undefined || !sharesEnough(result) || relationTo(query.type, type) === undefined) continue;
    candidates.push({ slug: result.slug, terms: result.terms });
    if (candidates.length === CANDIDATES) break;
  }
  return candidates;
}

/** The candidates as they are now (hydrated), each with its relation to the story and why it matched. */
export async function presentSimilar(query: SimilarQuery, candidates: readonly MatchedSlug[], hydrate: Hydrate): Promise<RelatedStory[]> {
  if (candidates.length === 0) return [];
  const matched = new Map(candidates.map((candidate) => [candidate.slug, candidate.terms]));
  const stories = await hydrate([...matched.keys()]);
  return stories
    .flatMap((story) => {
      const relation = relationTo(query.type, story.type);
      if (relation === undefined) return [];
      const why = whyItMatches(story, matched.get(story.slug) ?? []);
      return [{ slug: story.slug, title: story.title, type: story.type, status: story.status, relation, why }];
    })
    .slice(0, MAX_SIMILAR);
}

const TOPIC_FIELDS = new Set(['tags', 'stack']);

function sharesEnough(result: RankedSlug): boolean {
  if (result.queryTerms.length >= 2) return true;
  return Object.values(result.match).some((fields) => fields.some((field) => TOPIC_FIELDS.has(field)));
}
