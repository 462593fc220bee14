// The search engine loaded on first use (src/app/search/lazy-story-search.ts): one load shared by
// the calls that wait for it, the stories written before it handed over, a failed load tried
// again. The loaded search here is a recording stand-in (named as such): what is under test is
// only when and how the wrapper hands calls over.
import { describe, expect, it } from 'vitest';
import { lazyStorySearch } from '../../../../src/app/search/lazy-story-search.ts';
import type { StorySearch } from '../../../../src/app/search/story-search.ts';

function recordingSearch(calls: string[]): StorySearch {
  return {
    search: async () => {
      calls.push('search');
      return { stories: [], total: 0 };
    },
    suggest: async () => {
      calls.push('suggest');
      return { suggestions: [] };
    },
    similar: async () => {
      calls.push('similar');
      return [];
    },
    completeSlug: async () => {
      calls.push('completeSlug');
      return { values: [], total: 0, hasMore: false } as never;
    },
    invalidate: (slug) => void calls.push(`invalidate ${slug ?? '(all)'}`),
  };
}

describe('the search engine loaded on first use', () => {
  it('loads once for calls made together, after handing over the stories written before it', async () => {
    const calls: string[] = [];
    let loads = 0;
    const search = lazyStorySearch(async () => {
      loads += 1;
      return recordingSearch(calls);
    });
    search.invalidate('written-before');
    search.invalidate();
    expect(loads).toBe(0);
    await Promise.all([
      search.search({}),
      search.suggest({ context: 'x' }),
      search.similar({ slug: 's', title: 't', tags: [], stack: [], summary: '' } as never),
    ]);
    expect(loads).toBe(1);
    expect(calls[0]).toBe('invalidate written-before');
    expect(calls.slice(1).sort()).toEqual(['search', 'similar', 'suggest']);
    search.invalidate('written-after');
    expect(calls.at(-1)).toBe('invalidate written-after');
  });

  it('a load that fails fails its calls and is tried again by the next one', async () => {
    let attempt = 0;
    const search = lazyStorySearch(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('chunk not read');
      return recordingSearch([]);
    });
    await expect(search.search({})).rejects.toThrow('chunk not read');
    await expect(search.search({})).resolves.toEqual({ stories: [], total: 0 });
    expect(attempt).toBe(2);
  });
});
