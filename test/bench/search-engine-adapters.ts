// The two candidate engines behind one shape, each used as "an index snapshot kept in S3 and
// loaded by ETag": build it, serialise it to a string (what would be PUT to S3), load it back (what
// a cold instance does after the GET), search it, and feed it one story at a time.
import { create, insert, load, remove, save, search, type AnyOrama } from '@orama/orama';
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { normaliseTerm } from '../../src/app/search/suggestion-why.ts';
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

// The options src/app/search/story-search.ts searches with, the body added at the weight of the summary.
const MINISEARCH_OPTIONS: Options<SyntheticStory> = { fields: FIELDS, processTerm: normaliseTerm };
export const MINISEARCH_SEARCH: SearchOptions = {
  combineWith: 'AND',
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  boost: { title: 3, tags: 2, stack: 2, summary: 1, body: 1 },
};

function wrapMiniSearch(index: MiniSearch<SyntheticStory>): EngineIndex {
  return {
    add: (story) => index.add(story),
    // discard, not remove: the fed path knows only the id of a story that was hidden or deleted.
    remove: (story) => index.discard(story.id),
    search: (query, limit) =>
      index
        .search(query, MINISEARCH_SEARCH)
        .slice(0, limit)
        .map((result) => String(result.id)),
    serialise: () => JSON.stringify(index),
  };
}

export const miniSearchEngine: Engine = {
  name: 'minisearch',
  create: () => wrapMiniSearch(new MiniSearch<SyntheticStory>(MINISEARCH_OPTIONS)),
  load: (snapshot) => wrapMiniSearch(MiniSearch.loadJSON<SyntheticStory>(snapshot, MINISEARCH_OPTIONS)),
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
