// The search index module on its own: the bounded body prefix, re-indexing only changed text,
// newest-first order, and a snapshot that loads back into the same answers.
import { describe, expect, it } from 'vitest';
import { SEARCH_OPTIONS } from '../../../../src/app/search/search-ranking.ts';
import { BODY_PREFIX_BYTES, bodyPrefix, createStoryIndex, loadStoryIndex } from '../../../../src/app/search/story-index.ts';
import type { SearchableStory } from '../../../../src/store/search/searchable-stories.ts';

const story = (slug: string, fields: Partial<SearchableStory> = {}): SearchableStory => ({
  slug,
  title: slug,
  summary: '',
  tags: [],
  stack: [],
  markdown: '',
  type: 'success',
  published_at: '2026-11-01T00:00:00.000Z',
  ...fields,
});

describe('the body prefix', () => {
  it(`keeps at most ${BODY_PREFIX_BYTES} bytes of UTF-8 and never cuts a character in half`, () => {
    for (const unit of ['a', 'é', '€', '😀']) {
      const cut = bodyPrefix(unit.repeat(BODY_PREFIX_BYTES));
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(BODY_PREFIX_BYTES);
      expect(Buffer.byteLength(cut)).toBeGreaterThan(BODY_PREFIX_BYTES - 4);
      expect(cut).not.toContain('\uFFFD');
    }
    expect(bodyPrefix('short body')).toBe('short body');
  });
});

describe('the story index', () => {
  it('a story put again with the same text is not re-indexed; changed text or a removal is', () => {
    const index = createStoryIndex();
    expect(index.put(story('a', { title: 'Alpha retries' }))).toBe(true);
    expect(index.put(story('a', { title: 'Alpha retries' }))).toBe(false);
    expect(index.put(story('a', { title: 'Alpha backoff' }))).toBe(true);
    expect(index.search('retries', SEARCH_OPTIONS)).toEqual([]);
    expect(index.search('backoff', SEARCH_OPTIONS).map((result) => result.slug)).toEqual(['a']);
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.search('backoff', SEARCH_OPTIONS)).toEqual([]);
  });

  it('lists newest first, and ranks equal scores newest first', () => {
    const index = createStoryIndex();
    index.put(story('old', { title: 'Same words', published_at: '2026-01-01T00:00:00.000Z' }));
    index.put(story('new', { title: 'Same words', published_at: '2026-06-01T00:00:00.000Z' }));
    expect(index.newestFirst()).toEqual(['new', 'old']);
    expect(index.search('same words', SEARCH_OPTIONS).map((result) => result.slug)).toEqual(['new', 'old']);
  });

  it('a snapshot loads back into an index that answers the same and goes on being fed', () => {
    const index = createStoryIndex();
    index.put(story('a', { title: 'Gossamer queues', markdown: 'a body word: zanzibar' }));
    index.put(story('b', { title: 'Other things', tags: ['queues'] }));
    const loaded = loadStoryIndex(JSON.parse(JSON.stringify(index.toJSON())));
    for (const query of ['queues', 'zanzibar', 'gossa']) {
      expect(loaded.search(query, SEARCH_OPTIONS).map((result) => result.slug)).toEqual(
        index.search(query, SEARCH_OPTIONS).map((result) => result.slug),
      );
    }
    expect(loaded.put(story('a', { title: 'Gossamer queues', markdown: 'a body word: zanzibar' }))).toBe(false);
    loaded.remove('a');
    expect(loaded.search('zanzibar', SEARCH_OPTIONS)).toEqual([]);
    expect(loaded.newestFirst()).toEqual(['b']);
  });
});
