import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('story-search');
const alice = caller('alice');

/** A story with its own title, tags and stack. */
function story(title: string, tags: string[], stack: string[], options: { date?: string; visibility?: 'private' } = {}): string {
  return storyTitled(title, options.visibility === undefined ? {} : { visibility: options.visibility })
    .replace('tags: [dynamodb, idempotency, mcp]', `tags: [${tags.join(', ')}]`)
    .replace('stack: [typescript, aws-lambda, dynamodb]', `stack: [${stack.join(', ')}]`)
    .replace('date: 2026-10-14', `date: ${options.date ?? '2026-10-14'}`);
}

beforeAll(async () => {
  // Published in this order, so the feed (newest first) is the reverse.
  await publishStory(app.ctx(), alice, {
    markdown: story('Postgres advisory locks for cron jobs', ['postgres', 'cron'], ['python', 'postgres']),
  });
  await publishStory(app.ctx(), alice, {
    markdown: story('Retry storms after a DynamoDB throttle', ['dynamodb', 'retries'], ['typescript', 'dynamodb']),
  });
  await publishStory(app.ctx(), alice, { markdown: story('Flaky Chromium fonts in Debian CI', ['chromium', 'ci'], ['debian', 'node']) });
  await publishStory(app.ctx(), alice, {
    markdown: story('A private note about DynamoDB', ['dynamodb'], ['typescript'], { visibility: 'private' }),
  });
});

const titles = (page: { stories: Array<{ title: string }> }): string[] => page.stories.map((s) => s.title);

describe('search_stories', () => {
  it('an empty query lists the public stories newest first', async () => {
    const search = createStorySearch(app.ctx());
    const page = await search.search({});
    expect(titles(page)).toEqual([
      'Flaky Chromium fonts in Debian CI',
      'Retry storms after a DynamoDB throttle',
      'Postgres advisory locks for cron jobs',
    ]);
    expect(page.total).toBe(3);
    expect(page.cursor).toBeUndefined();
  });

  it('every word of a multi-word query must match, across title, summary, tags and stack', async () => {
    const search = createStorySearch(app.ctx());
    expect(titles(await search.search({ query: 'dynamodb typescript' }))).toEqual(['Retry storms after a DynamoDB throttle']);
    expect(titles(await search.search({ query: 'dynamodb python' }))).toEqual([]);
    // "debian" only in the stack of one story, "fonts" only in its title.
    expect(titles(await search.search({ query: 'debian fonts' }))).toEqual(['Flaky Chromium fonts in Debian CI']);
  });

  it('the last word matches as a prefix, and a longer word tolerates a typo', async () => {
    const search = createStorySearch(app.ctx());
    expect(titles(await search.search({ query: 'chrom' }))).toEqual(['Flaky Chromium fonts in Debian CI']);
    expect(titles(await search.search({ query: 'postgress' }))).toEqual(['Postgres advisory locks for cron jobs']);
  });

  it('private stories are never found', async () => {
    const search = createStorySearch(app.ctx());
    expect(titles(await search.search({ query: 'private note' }))).toEqual([]);
  });

  it('pages with a cursor bound to its query; a cursor with another query is refused', async () => {
    const search = createStorySearch(app.ctx());
    const first = await search.search({ limit: 2 });
    expect(first.stories).toHaveLength(2);
    const second = await search.search({ limit: 2, cursor: first.cursor });
    expect(titles(second)).toEqual(['Postgres advisory locks for cron jobs']);
    expect(second.cursor).toBeUndefined();
    const error = await refusal(search.search({ query: 'dynamodb', limit: 2, cursor: first.cursor }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toMatchObject({ fields: { cursor: expect.any(String) } });
  });

  it('bad arguments are validation_failed naming the field', async () => {
    const search = createStorySearch(app.ctx());
    expect((await refusal(search.search({ limit: 0 }))).details).toMatchObject({ fields: { limit: expect.any(String) } });
    expect((await refusal(search.search({ query: 5 }))).details).toMatchObject({ fields: { query: expect.any(String) } });
  });

  it('a story published in this process is found on the next search after invalidate; otherwise the index is kept until it is stale', async () => {
    let now = 1_000_000;
    const search = createStorySearch(app.ctx(), { refreshMs: 5000, now: () => now });
    expect((await search.search({ query: 'kubernetes' })).total).toBe(0);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: story('Kubernetes probes that lie', ['kubernetes'], ['go']) });
    // Not invalidated, not stale: the index built before the publish answers.
    expect((await search.search({ query: 'kubernetes' })).total).toBe(0);
    search.invalidate();
    expect((await search.search({ query: 'kubernetes' })).total).toBe(1);
    // A hide elsewhere (another instance) shows once the index is older than refreshMs.
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    expect((await search.search({ query: 'kubernetes' })).total).toBe(1);
    now += 5000;
    expect((await search.search({ query: 'kubernetes' })).total).toBe(0);
  });

  it('concurrent searches share one rebuild', async () => {
    const search = createStorySearch(app.ctx());
    app.counter().reset();
    await Promise.all(Array.from({ length: 8 }, () => search.search({ query: 'dynamodb' })));
    const reads = app.counter().snapshot();
    console.log('8 concurrent first searches', reads);
    // One feed walk: the months item, a Query per month shard, META and handles.
    expect(reads.GetItem).toBe(1);
  });
});

describe('suggest_for_project', () => {
  it('answers up to 3 stories matching the project, each with a one-line why naming what matched', async () => {
    const search = createStorySearch(app.ctx());
    const { suggestions } = await search.suggest({
      context: 'We run a TypeScript service on AWS Lambda writing to DynamoDB and see retries pile up when it throttles.',
    });
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(3);
    expect(suggestions[0]?.story.title).toBe('Retry storms after a DynamoDB throttle');
    const why = suggestions[0]?.why ?? '';
    expect(why).not.toContain('\n');
    expect(why).toMatch(/stack typescript, dynamodb/);
    expect(why).toMatch(/success story/);
  });

  it('a description that shares nothing with any story suggests nothing; an empty one is refused', async () => {
    const search = createStorySearch(app.ctx());
    expect((await search.suggest({ context: 'the and with for' })).suggestions).toEqual([]);
    expect((await refusal(search.suggest({ context: '' }))).code).toBe('validation_failed');
  });
});
