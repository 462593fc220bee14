// The in-memory index over the public feed that search_stories, suggest_for_project and a
// publish's `similar` rank with: MiniSearch over each story's title, summary, tags and stack,
// and the summaries it answers with. Built from a list of summaries, newest first, so it knows
// nothing of where they came from.
import MiniSearch from 'minisearch';
import type { StorySummary } from '../contract/story-shapes.ts';
import { normaliseTerm } from './suggestion-why.ts';

interface IndexedStory {
  id: string;
  title: string;
  summary: string;
  tags: string;
  stack: string;
}

export interface StoryIndex {
  index: MiniSearch<IndexedStory>;
  /** Newest first, as the feed lists them. */
  stories: StorySummary[];
  bySlug: Map<string, { story: StorySummary; newest: number }>;
}

const FIELDS = ['title', 'summary', 'tags', 'stack'] as const;

export function indexStories(listed: readonly StorySummary[]): StoryIndex {
  const index = new MiniSearch<IndexedStory>({ fields: [...FIELDS], processTerm: normaliseTerm });
  const bySlug = new Map<string, { story: StorySummary; newest: number }>();
  listed.forEach((story, position) => {
    // A story listed twice (it moved while the feed was walked) is indexed once.
    if (bySlug.has(story.slug)) return;
    bySlug.set(story.slug, { story, newest: position });
    index.add({ id: story.slug, title: story.title, summary: story.summary, tags: story.tags.join(' '), stack: story.stack.join(' ') });
  });
  return { index, stories: [...bySlug.values()].map((entry) => entry.story), bySlug };
}

interface Ranked {
  id: unknown;
  score: number;
}

/** Best score first; among equal scores the newer story first. */
export function sortByScoreThenNewest<R extends Ranked>(indexed: StoryIndex, results: R[]): R[] {
  const newest = (result: R): number => indexed.bySlug.get(String(result.id))?.newest ?? Number.MAX_SAFE_INTEGER;
  return [...results].sort((a, b) => b.score - a.score || newest(a) - newest(b));
}
