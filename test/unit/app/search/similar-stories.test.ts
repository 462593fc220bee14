import { describe, expect, it } from 'vitest';
import type { StorySummary } from '../../../../src/app/contract/story-shapes.ts';
import { presentSimilar, type SimilarQuery, similarCandidates } from '../../../../src/app/search/similar-stories.ts';
import { createStoryIndex, type StoryIndex } from '../../../../src/app/search/story-index.ts';

/** A listed story's summary: only what ranking reads varies. */
function listed(
  slug: string,
  fields: Partial<Pick<StorySummary, 'title' | 'summary' | 'tags' | 'stack' | 'type' | 'status'>>,
): StorySummary {
  return {
    slug,
    title: fields.title ?? slug,
    summary: fields.summary ?? '',
    author: { account: 'acct-a', handle: 'a.test' },
    date: '2026-11-02',
    published_at: '2026-11-02T10:00:00.000Z',
    tags: fields.tags ?? [],
    stack: fields.stack ?? [],
    type: fields.type ?? 'success',
    status: fields.status ?? 'n/a',
    has_check: false,
    counts: { worked: 0, partial: 0, failed: 0 },
    checks: { has_problem: 0, no_problem: 0 },
    reproducers_count: 0,
    capability_tier: null,
  };
}

/** An index of the stories, and what hydration would read of them (the table, in the app). */
interface Indexed {
  index: StoryIndex;
  stories: Map<string, StorySummary>;
}

function indexStories(stories: readonly StorySummary[]): Indexed {
  const index = createStoryIndex();
  for (const story of stories) index.put({ ...story, markdown: '' });
  return { index, stories: new Map(stories.map((story) => [story.slug, story])) };
}

/** The candidates the index finds, presented as a publish answer shows them. */
const findSimilar = (indexed: Indexed, query: SimilarQuery) =>
  presentSimilar(query, similarCandidates(indexed.index, query), async (slugs) => slugs.flatMap((slug) => indexed.stories.get(slug) ?? []));

const failQuery: SimilarQuery = {
  slug: '2026-11-30-chromium-boxes',
  type: 'fail',
  title: 'Headless Chromium draws boxes instead of fonts',
  tags: ['chromium', 'fonts'],
  stack: ['debian', 'node'],
  summary: 'Every label in our CI screenshots is a box.',
};

const slugs = (related: Array<{ slug: string }>): string[] => related.map((story) => story.slug);

describe("a publish's similar stories", () => {
  it('for a fail story only success stories, each as one that may answer it', async () => {
    const indexed = indexStories([
      listed('fail-fonts', { title: 'Chromium fonts missing in Debian', tags: ['chromium', 'fonts'], type: 'fail', status: 'open' }),
      listed('fixed-fonts', { title: 'Chromium fonts fixed with fontconfig', tags: ['chromium', 'fonts'], stack: ['debian'] }),
    ]);
    const related = await findSimilar(indexed, failQuery);
    expect(slugs(related)).toEqual(['fixed-fonts']);
    expect(related[0]).toMatchObject({ type: 'success', relation: 'may_answer', title: 'Chromium fonts fixed with fontconfig' });
    expect(related[0]?.why).toMatch(/^Matches .*a success story/);
  });

  it('for a success story stories of either type, as related ones', async () => {
    const indexed = indexStories([
      listed('fail-fonts', { title: 'Chromium fonts missing in Debian', tags: ['chromium', 'fonts'], type: 'fail', status: 'open' }),
      listed('fixed-fonts', { title: 'Chromium fonts fixed with fontconfig', tags: ['chromium', 'fonts'] }),
    ]);
    const related = await findSimilar(indexed, { ...failQuery, type: 'success' });
    expect(slugs(related).sort()).toEqual(['fail-fonts', 'fixed-fonts']);
    expect(related.map((story) => story.relation)).toEqual(['related', 'related']);
  });

  it('never the story itself, even when the index already holds it', async () => {
    const indexed = indexStories([
      listed(failQuery.slug, { title: failQuery.title, tags: ['chromium', 'fonts'], stack: ['debian', 'node'] }),
      listed('fixed-fonts', { title: 'Chromium fonts fixed', tags: ['chromium'] }),
    ]);
    expect(slugs(await findSimilar(indexed, { ...failQuery, type: 'success' }))).toEqual(['fixed-fonts']);
  });

  it('at most three, best match first: shared stack and tags outrank shared summary words', async () => {
    const summaryOnly = listed('summary-only', { title: 'Office printers', summary: 'Our label printer drew a box.' });
    // On its own it is similar: it is left out below only because three others rank above it.
    expect(slugs(await findSimilar(indexStories([summaryOnly]), failQuery))).toEqual(['summary-only']);
    const indexed = indexStories([
      summaryOnly,
      listed('two-tags', { title: 'Printing receipts', tags: ['fonts', 'chromium'] }),
      listed('tags-and-stack', { title: 'Fonts in containers', tags: ['chromium', 'fonts'], stack: ['debian', 'node'] }),
      listed('title-and-tag', { title: 'Headless Chromium in CI', tags: ['chromium'] }),
      listed('unrelated', { title: 'Postgres advisory locks', tags: ['postgres'], stack: ['python'] }),
    ]);
    const related = await findSimilar(indexed, failQuery);
    expect(related).toHaveLength(3);
    expect(related[0]?.slug).toBe('tags-and-stack');
    expect(slugs(related)).not.toContain('summary-only');
    expect(slugs(related)).not.toContain('unrelated');
  });

  it('three successes for a fail story even when fail stories rank above them', async () => {
    const fails = ['a', 'b', 'c', 'd'].map((id) =>
      listed(`fail-${id}`, {
        title: 'Headless Chromium fonts boxes',
        tags: ['chromium', 'fonts'],
        stack: ['debian', 'node'],
        type: 'fail',
      }),
    );
    const successes = ['a', 'b', 'c', 'd'].map((id) => listed(`success-${id}`, { title: `Chromium ${id}`, tags: ['chromium'] }));
    const related = await findSimilar(indexStories([...fails, ...successes]), failQuery);
    expect(related).toHaveLength(3);
    expect(related.every((story) => story.type === 'success')).toBe(true);
  });

  it('one shared word is not enough; a shared tag or stack entry, or two shared words, are', async () => {
    const query = { ...failQuery, type: 'success' as const };
    const oneWord = listed('one-word', { title: 'Printers jammed', summary: 'Every morning.' });
    expect(await findSimilar(indexStories([oneWord]), query)).toEqual([]);
    const indexed = indexStories([
      oneWord,
      listed('two-words', { title: 'Printers jammed', summary: 'Every label.' }),
      listed('one-tag', { title: 'Printers jammed', tags: ['fonts'] }),
    ]);
    expect(slugs(await findSimilar(indexed, query)).sort()).toEqual(['one-tag', 'two-words']);
    expect(slugs(await findSimilar(indexStories([listed('one-stack', { title: 'Printers jammed', stack: ['debian'] })]), query))).toEqual([
      'one-stack',
    ]);
  });

  it('an empty list when no listed story shares a word', async () => {
    const indexed = indexStories([listed('unrelated', { title: 'Postgres advisory locks', tags: ['postgres'], stack: ['python'] })]);
    expect(await findSimilar(indexed, failQuery)).toEqual([]);
    expect(await findSimilar(indexStories([]), failQuery)).toEqual([]);
  });
});
