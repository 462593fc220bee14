// The search index over the listed stories (public, not hidden): MiniSearch over each story's
// title, summary, tags, stack and the first BODY_PREFIX_BYTES of its markdown, plus a small
// entry per story (title, type, published_at) for ranking ties, newest-first lists and slug
// completion. It knows nothing of where stories come from: a snapshot, a feed walk or the change
// log feed it (search-index-feed.ts), and it serialises to a plain object for a snapshot.
import { createHash } from 'node:crypto';
import MiniSearch, { type AsPlainObject, type SearchOptions, type SearchResult } from 'minisearch';
import type { SearchableStory } from '../../store/search/searchable-stories.ts';
import type { TermStats } from './query-plan.ts';
import { normaliseTerm } from './suggestion-why.ts';

/**
 * How much of a story's markdown is indexed: 16 KiB of UTF-8, a quarter of the 64 KiB a story may
 * be. The narrative and first sections carry what a story is about; indexing whole bodies would
 * multiply the snapshot's size (docs/search.md) for words that rarely decide a search.
 */
export const BODY_PREFIX_BYTES = 16 * 1024;

export const INDEXED_FIELDS = ['title', 'summary', 'tags', 'stack', 'body'] as const;
export type IndexedField = (typeof INDEXED_FIELDS)[number];

interface IndexedDocument {
  id: string;
  title: string;
  summary: string;
  tags: string;
  stack: string;
  body: string;
}

/** What the index keeps of a story beside its terms. */
export interface IndexEntry {
  title: string;
  type: string;
  published_at: string;
  /** A hash of the indexed text: a story re-read unchanged is not re-indexed. */
  fingerprint: string;
}

export interface RankedSlug {
  slug: string;
  score: number;
  /** The query terms that matched (the "why" of a suggestion). */
  terms: string[];
  /** Query terms matched, in the query's own form. */
  queryTerms: string[];
  /** Which fields each matched term was found in. */
  match: SearchResult['match'];
}

/** A story a search found, with the query words it matched (the "why" of a suggestion): what crosses from the index's thread. */
export type MatchedSlug = Pick<RankedSlug, 'slug' | 'terms'>;

export interface StoryIndex {
  /** Adds or replaces the story; false when it was indexed with this very text already. */
  put(story: SearchableStory): boolean;
  /** Drops the story; false when it was not indexed. */
  remove(slug: string): boolean;
  entry(slug: string): IndexEntry | undefined;
  readonly size: number;
  /** Best score first; among equal scores the newer story first. */
  search(query: string, options: SearchOptions): RankedSlug[];
  /** What a query plan reads (query-plan.ts). */
  readonly stats: TermStats;
  /** Every indexed slug, newest first. */
  newestFirst(): readonly string[];
  toJSON(): IndexSnapshotBody;
}

/** What a snapshot holds of an index (search-snapshot-codec.ts adds the watermark). */
export interface IndexSnapshotBody {
  entries: [string, IndexEntry][];
  terms: AsPlainObject;
}

const MINISEARCH_OPTIONS = { fields: [...INDEXED_FIELDS], processTerm: normaliseTerm };

export function createStoryIndex(): StoryIndex {
  return wrap(new MiniSearch<IndexedDocument>(MINISEARCH_OPTIONS), new Map());
}

export function loadStoryIndex(body: IndexSnapshotBody): StoryIndex {
  return wrap(MiniSearch.loadJS<IndexedDocument>(body.terms, MINISEARCH_OPTIONS), new Map(body.entries));
}

/** As loadStoryIndex, yielding to the event loop every thousand terms (MiniSearch's own loadJSAsync). */
export async function loadStoryIndexAsync(terms: AsPlainObject, entries: Map<string, IndexEntry>): Promise<StoryIndex> {
  return wrap(await MiniSearch.loadJSAsync<IndexedDocument>(terms, MINISEARCH_OPTIONS), entries);
}

/** The first `BODY_PREFIX_BYTES` of the markdown, cut at a character boundary. */
export function bodyPrefix(markdown: string): string {
  // Fewer UTF-16 units than a quarter of the bytes cannot reach the limit in UTF-8 (≤ 3 bytes a unit).
  if (markdown.length * 3 <= BODY_PREFIX_BYTES) return markdown;
  const bytes = Buffer.from(markdown, 'utf8');
  if (bytes.length <= BODY_PREFIX_BYTES) return markdown;
  let end = BODY_PREFIX_BYTES;
  // Back up over continuation bytes (10xxxxxx) so no character is cut in half.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

function documentOf(story: SearchableStory): IndexedDocument {
  return {
    id: story.slug,
    title: story.title,
    summary: story.summary,
    tags: story.tags.join(' '),
    stack: story.stack.join(' '),
    body: bodyPrefix(story.markdown),
  };
}

function fingerprintOf(document: IndexedDocument, story: SearchableStory): string {
  const text = JSON.stringify([
    document.title,
    document.summary,
    document.tags,
    document.stack,
    document.body,
    story.type,
    story.published_at,
  ]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

const newerFirst = (a: IndexEntry, b: IndexEntry): number =>
  a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : 0;

/**
 * MiniSearch's term tree, which it keeps private: term → field id → story id → frequency. Read
 * only here, for the two counts a query plan needs (MiniSearch has no public API for them; the
 * version is pinned, and test/unit/app/search/query-plan.test.ts fails first if its shape changes).
 */
interface TermTree {
  get(term: string): FieldStories | undefined;
  atPrefix(prefix: string): { entries(): IterableIterator<[string, FieldStories]> };
  fuzzyGet(term: string, edits: number): Map<string, [FieldStories, number]>;
}
type FieldStories = Map<number, Map<number, number>>;

/** The stories holding a term in its busiest field (of `within`'s field ids, when given). */
function storiesIn(fields: FieldStories | undefined, within: readonly number[] | undefined): number {
  let most = 0;
  for (const [field, stories] of fields ?? []) if (within === undefined || within.includes(field)) most = Math.max(most, stories.size);
  return most;
}

function termStats(terms: MiniSearch<IndexedDocument>): TermStats {
  const { _index: tree, _fieldIds: fieldIds } = terms as unknown as { _index: TermTree; _fieldIds: Record<string, number> };
  return {
    get stories() {
      return terms.documentCount;
    },
    storiesReached(word, match, cap) {
      const within = match.fields?.map((field) => fieldIds[field] ?? -1);
      const counted = new Set([word]);
      let reached = storiesIn(tree.get(word), within);
      const add = (term: string, fields: FieldStories): boolean => {
        if (counted.has(term)) return reached <= cap;
        counted.add(term);
        reached += storiesIn(fields, within);
        return reached <= cap;
      };
      if (match.edits > 0) for (const [term, [fields]] of tree.fuzzyGet(word, match.edits)) if (!add(term, fields)) return reached;
      if (match.prefix) for (const [term, fields] of tree.atPrefix(word).entries()) if (!add(term, fields)) return reached;
      return reached;
    },
    termsStartingWith(prefix, cap) {
      let count = 0;
      for (const _term of tree.atPrefix(prefix).entries()) if (++count > cap) break;
      return count;
    },
  };
}

function wrap(terms: MiniSearch<IndexedDocument>, entries: Map<string, IndexEntry>): StoryIndex {
  // Recomputed on the first newest-first read after a change: one sort per change burst, not per search.
  let newest: string[] | undefined;

  const remove = (slug: string): boolean => {
    if (!entries.delete(slug)) return false;
    terms.discard(slug);
    newest = undefined;
    return true;
  };

  return {
    put(story) {
      const document = documentOf(story);
      const fingerprint = fingerprintOf(document, story);
      if (entries.get(story.slug)?.fingerprint === fingerprint) return false;
      remove(story.slug);
      terms.add(document);
      entries.set(story.slug, { title: story.title, type: story.type, published_at: story.published_at, fingerprint });
      newest = undefined;
      return true;
    },
    remove,
    stats: termStats(terms),
    entry: (slug) => entries.get(slug),
    get size() {
      return entries.size;
    },
    search(query, options) {
      const ranked = terms.search(query, options).map((result) => ({
        slug: String(result.id),
        score: result.score,
        terms: result.terms,
        queryTerms: result.queryTerms,
        match: result.match,
        entry: entries.get(String(result.id)),
      }));
      ranked.sort((a, b) => b.score - a.score || (a.entry !== undefined && b.entry !== undefined ? newerFirst(a.entry, b.entry) : 0));
      return ranked.map(({ entry: _entry, ...result }) => result);
    },
    newestFirst() {
      newest ??= [...entries.entries()].sort(([, a], [, b]) => newerFirst(a, b)).map(([slug]) => slug);
      return newest;
    },
    toJSON: () => ({ entries: [...entries.entries()], terms: terms.toJSON() }),
  };
}
