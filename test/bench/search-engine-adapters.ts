// The two candidate engines behind one shape, each used as "an index snapshot kept in S3 and
// loaded by ETag": build it, serialise it to a string (what would be PUT to S3), load it back (what
// a cold instance does after the GET), search it, and feed it one story at a time.
import { type AnyOrama, create, insert, load, remove, save, search } from '@orama/orama';
import { rankForQuery } from '../../src/app/search/search-ranking.ts';
import { createStoryIndex, type IndexSnapshotBody, loadStoryIndex, type StoryIndex } from '../../src/app/search/story-index.ts';
import type { SyntheticStory } from './search-corpus.ts';

export interface EngineIndex {
  add(story: SyntheticStory): void;
  remove(story: SyntheticStory): void;
  /** At most `limit` ids, best first. */
  search(query: string, limit: number): string[];
  serialise(): string;
}

export interface Engine {
  name: EngineName;
  create(): EngineIndex;
  load(snapshot: string): EngineIndex;
}

export type EngineName = 'minisearch' | 'orama';

const FIELDS = ['title', 'summary', 'tags', 'stack', 'body'];

// MiniSearch as production runs it: src/app/search/story-index.ts (the body's first 16 KiB, the
// entries beside the terms) searched with search_stories' own options.
export const asSearchable = (story: SyntheticStory) => ({
  slug: story.id,
  title: story.title,
  summary: story.summary,
  tags: story.tags.split(' '),
  stack: [story.stack],
  markdown: story.body,
  type: 'success',
  published_at: `2026-01-01T00:00:00.${String(Number(story.id.replace(/\D/g, '')) % 1000).padStart(3, '0')}Z`,
});

function wrapMiniSearch(index: StoryIndex): EngineIndex {
  return {
    add: (story) => void index.put(asSearchable(story)),
    // By slug alone, as a change-log entry for a story no longer listed gives it.
    remove: (story) => void index.remove(story.id),
    search: (query, limit) =>
      rankForQuery(index, query)
        .slice(0, limit)
        .map((result) => result.slug),
    serialise: () => JSON.stringify(index.toJSON()),
  };
}

export const miniSearchEngine: Engine = {
  name: 'minisearch',
  create: () => wrapMiniSearch(createStoryIndex()),
  load: (snapshot) => wrapMiniSearch(loadStoryIndex(JSON.parse(snapshot) as IndexSnapshotBody)),
};

const ORAMA_SCHEMA = { title: 'string', summary: 'string', tags: 'string', stack: 'string', body: 'string' } as const;

function createOrama(): AnyOrama {
  return create({ schema: ORAMA_SCHEMA });
}

function wrapOrama(db: AnyOrama): EngineIndex {
  return {
    add: (story) => {
      insert(db, story);
    },
    remove: (story) => {
      remove(db, story.id);
    },
    search: (query, limit) => {
      // threshold 0: only documents with every word (Orama's AND); the same boosts as MiniSearch.
      // Orama's search is synchronous unless a plugin or hook makes it async; none is installed.
      const result = search(db, {
        term: query,
        properties: FIELDS,
        threshold: 0,
        limit,
        boost: { title: 3, tags: 2, stack: 2, summary: 1, body: 1 },
      }) as { hits: { id: string }[] };
      return result.hits.map((hit) => hit.id);
    },
    serialise: () => JSON.stringify(save(db)),
  };
}

export const oramaEngine: Engine = {
  name: 'orama',
  create: () => wrapOrama(createOrama()),
  load: (snapshot) => {
    const db = createOrama();
    load(db, JSON.parse(snapshot));
    return wrapOrama(db);
  },
};

export const ENGINES: Record<EngineName, Engine> = { minisearch: miniSearchEngine, orama: oramaEngine };
