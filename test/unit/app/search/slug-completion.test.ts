// completion/complete's slug matching over the search snapshot: bounded to 100 values whatever
// matches, in the snapshot's (newest first) order, by slug, title part or title prefix.
import { describe, expect, it } from 'vitest';
import type { StorySummary } from '../../../../src/app/contract/story-shapes.ts';
import { completeSlugs, MAX_COMPLETIONS } from '../../../../src/app/search/slug-completion.ts';

const summary = (slug: string, title: string): StorySummary => ({ slug, title }) as StorySummary;
const many = Array.from({ length: 150 }, (_, n) => summary(`2026-10-${String((n % 28) + 1).padStart(2, '0')}-story-${n}`, `Story ${n}`));

describe('slug completion', () => {
  it('answers at most 100 values, and says how many matched and that more exist', () => {
    const all = completeSlugs(many, '');
    expect(MAX_COMPLETIONS).toBe(100);
    expect(all.values).toEqual(many.slice(0, 100).map((story) => story.slug));
    expect(all).toMatchObject({ total: 150, hasMore: true });
  });

  it('matches a prefix of the slug, of its title part or of the title, whatever the case, in the given order', () => {
    const stories = [summary('2026-10-02-dynamo-retries', 'Retries piled up'), summary('2026-09-01-dynamo-counter', 'Counter doubled')];
    expect(completeSlugs(stories, '2026-10').values).toEqual(['2026-10-02-dynamo-retries']);
    expect(completeSlugs(stories, 'dynamo').values).toEqual(['2026-10-02-dynamo-retries', '2026-09-01-dynamo-counter']);
    expect(completeSlugs(stories, 'COUNTER d').values).toEqual(['2026-09-01-dynamo-counter']);
    expect(completeSlugs(stories, 'doubled')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('a value longer than any search query matches nothing, unscanned', () => {
    expect(completeSlugs(many, 's'.repeat(501))).toEqual({ values: [], total: 0, hasMore: false });
  });
});
