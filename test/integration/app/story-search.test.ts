import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { MAX_QUERY_WORDS } from '../../../src/app/search/search-stories.contract.ts';
import { BODY_PREFIX_BYTES } from '../../../src/app/search/story-index.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { MAX_STORY_MARKDOWN_BYTES } from '../../../src/domain/story/story-limits.ts';
import { writeSearchLog } from '../../../src/store/search/search-log.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('story-search');
const alice = caller('alice');

/** A story with its own title, tags and stack. */
function story(title: string, tags: string[], stack: string[], options: { visibility?: 'private'; extra?: string } = {}): string {
  return storyTitled(title, options)
    .replace('tags: [dynamodb, idempotency, mcp]', `tags: [${tags.join(', ')}]`)
    .replace('stack: [typescript, aws-lambda, dynamodb]', `stack: [${stack.join(', ')}]`);
}

beforeAll(async () => {
  // Published in this order, so newest first is the reverse.
  await publishStory(app.ctx(), alice, {
    markdown: story('Postgres advisory locks for cron jobs', ['postgres', 'cron'], ['python', 'postgres']),
  });
  await publishStory(app.ctx(), alice, {
    markdown: story('Retry storms after a DynamoDB throttle', ['dynamodb', 'retries'], ['typescript', 'dynamodb'], {
      extra: 'The culprit was a quixotically configured backoff.',
    }),
  });
  await publishStory(app.ctx(), alice, { markdown: story('Flaky Chromium fonts in Debian CI', ['chromium', 'ci'], ['debian', 'node']) });
  await publishStory(app.ctx(), alice, {
    markdown: story('A private note about DynamoDB', ['dynamodb'], ['typescript'], { visibility: 'private' }),
  });
});

const titles = (page: { stories: Array<{ title: string }> }): string[] => page.stories.map((s) => s.title);

describe('search_stories', () => {
  it('an empty query lists the public stories newest first', async () => {
    const page = await createStorySearch(app.ctx()).search({});
    expect(titles(page)).toEqual([
      'Flaky Chromium fonts in Debian CI',
      'Retry storms after a DynamoDB throttle',
      'Postgres advisory locks for cron jobs',
    ]);
    expect(page.total).toBe(3);
    expect(page.cursor).toBeUndefined();
  });

  it('a word only in the body finds its story', async () => {
    expect(titles(await createStorySearch(app.ctx()).search({ query: 'quixotically' }))).toEqual([
      'Retry storms after a DynamoDB throttle',
    ]);
  });

  it('every word of a multi-word query must match, across title, summary, tags, stack and body', async () => {
    const search = createStorySearch(app.ctx());
    expect(titles(await search.search({ query: 'quixotically typescript' }))).toEqual(['Retry storms after a DynamoDB throttle']);
    expect(titles(await search.search({ query: 'chromium python' }))).toEqual([]);
    // "debian" only in the stack of one story, "fonts" only in its title.
    expect(titles(await search.search({ query: 'debian fonts' }))).toEqual(['Flaky Chromium fonts in Debian CI']);
  });

  it('the last word matches as a prefix, and a longer word tolerates a typo', async () => {
    const search = createStorySearch(app.ctx());
    expect(titles(await search.search({ query: 'chrom' }))).toEqual(['Flaky Chromium fonts in Debian CI']);
    expect(titles(await search.search({ query: 'postgress' }))).toEqual(['Postgres advisory locks for cron jobs']);
  });

  it('private stories are never found', async () => {
    expect(titles(await createStorySearch(app.ctx()).search({ query: 'private note' }))).toEqual([]);
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

  it(`a query of more than ${MAX_QUERY_WORDS} words is refused naming the field, before any store read; ${MAX_QUERY_WORDS} long words answer`, async () => {
    const search = createStorySearch(app.ctx());
    app.counter().reset();
    const many = Array.from({ length: MAX_QUERY_WORDS + 1 }, (_, n) => `w${n}`).join(' ');
    const error = await refusal(search.search({ query: many }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toMatchObject({ fields: { query: expect.stringContaining(`${MAX_QUERY_WORDS} words`) } });
    expect(app.counter().total()).toBe(0);
    // The longest query accepted: 16 words of ~30 letters, each looked up with typos and (the last) as a prefix.
    const longest = Array.from({ length: MAX_QUERY_WORDS }, (_, n) => `${'quixotically'.repeat(2)}${n}`).join(' ');
    expect(longest.length).toBeLessThanOrEqual(500);
    expect((await search.search({ query: longest })).total).toBe(0);
  });

  it('a story hidden since the index saw it never shows: every page is read from the table', async () => {
    const search = createStorySearch(app.ctx(), { refreshMs: 3_600_000 });
    const { slug } = await publishStory(app.ctx(), alice, { markdown: story('Kubernetes probes that lie', ['kubernetes'], ['go']) });
    search.invalidate(slug);
    expect((await search.search({ query: 'kubernetes' })).total).toBe(1);
    // Hidden behind this instance's back: no log entry, no invalidate, an index that still holds it.
    await setVisibility(app.ctx(), alice, { slug, hidden: true });
    expect(titles(await search.search({ query: 'kubernetes' }))).toEqual([]);
    await setVisibility(app.ctx(), alice, { slug, hidden: false });
  });

  it("a change logged by another instance's write is found after refreshMs; this process's own write at once", async () => {
    let now = 1_000_000;
    const search = createStorySearch(app.ctx(), { refreshMs: 1000, now: () => now });
    expect((await search.search({ query: 'terraform' })).total).toBe(0);
    const { slug } = await publishStory(app.ctx(), alice, { markdown: story('Terraform state locks held', ['terraform'], ['hcl']) });
    await writeSearchLog(app.ctx().store, [{ slug, eventId: 'elsewhere-1' }]);
    // Read the log less than refreshMs ago: the index answers as it is.
    expect((await search.search({ query: 'terraform' })).total).toBe(0);
    now += 1000;
    expect(titles(await search.search({ query: 'terraform' }))).toEqual(['Terraform state locks held']);
    // Applied once: a refresh that finds only entries it applied re-reads no story.
    now += 1000;
    app.counter().reset();
    await search.search({ query: 'terraform' });
    expect(app.counter().snapshot().BatchGetItem).toBe(2);

    const own = await publishStory(app.ctx(), alice, { markdown: story('Helm charts drifted', ['helm'], ['yaml']) });
    search.invalidate(own.slug);
    expect(titles(await search.search({ query: 'helm' }))).toEqual(['Helm charts drifted']);
  });

  it('concurrent first searches share one load of the index', async () => {
    const search = createStorySearch(app.ctx());
    app.counter().reset();
    await Promise.all(Array.from({ length: 8 }, () => search.search({ query: 'dynamodb' })));
    const reads = app.counter().snapshot();
    // One load: the pointer (none here) and the months item; one log Query for each search round at most.
    expect(reads.GetItem).toBe(2);
  });
});

describe('a body at the story size limit', () => {
  it(`indexes the first ${BODY_PREFIX_BYTES} bytes of the markdown: a word there is found, a word past it is not`, async () => {
    const filler = 'lorem ipsum dolor sit amet consectetur '.repeat(Math.ceil(MAX_STORY_MARKDOWN_BYTES / 40));
    const base = story('A story as long as a story may be', ['limits'], ['markdown'], { extra: 'Early zanzibarite mention.' });
    const room = MAX_STORY_MARKDOWN_BYTES - Buffer.byteLength(base) - 200;
    const markdown = base.replace('Verify:', `${filler.slice(0, room)} Late xylophonist mention.\n\nVerify:`);
    expect(Buffer.byteLength(markdown)).toBeGreaterThan(MAX_STORY_MARKDOWN_BYTES - 400);
    const { slug } = await publishStory(app.ctx(), alice, { markdown });
    const search = createStorySearch(app.ctx());
    search.invalidate(slug);
    expect(titles(await search.search({ query: 'zanzibarite' }))).toEqual(['A story as long as a story may be']);
    expect((await search.search({ query: 'xylophonist' })).total).toBe(0);
  });
});

describe('suggest_for_project', () => {
  it('answers up to 3 stories matching the project, each with a one-line why naming what matched', async () => {
    const { suggestions } = await createStorySearch(app.ctx()).suggest({
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
