// `npm start`'s search index in a thread of its own (src/cli/search-index-in-thread.ts): it answers
// every question as an index held in the serving thread does, finds what this process just wrote
// (told while the thread runs, or while none does), and a thread that dies fails only the question
// it held, with the retryable store_unavailable, before the next question starts another. Real
// worker threads on DynamoDB Local; the thread is killed with Worker.terminate().
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { runSnapshotJob } from '../../../src/app/search/search-snapshot-job.ts';
import { createStorySearch, type StorySearch } from '../../../src/app/search/story-search.ts';
import { type IndexInThread, searchIndexInThread } from '../../../src/cli/search-index-in-thread.ts';
import { readConfig } from '../../../src/config.ts';
import { buildContext } from '../../../src/context.ts';
import { LorebookError } from '../../../src/domain/errors.ts';
import { searchSnapshotsInDirectory } from '../../../src/store/search/search-snapshots-dir.ts';
import { caller, useAppFixture, WITHOUT_DAILY_LIMITS, WITHOUT_SPAM_WAVE_CHECK } from '../../helpers/app-fixture.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('search-index-in-thread', { ...WITHOUT_DAILY_LIMITS, ...WITHOUT_SPAM_WAVE_CHECK });
const alice = caller('alice');
const directory = mkdtempSync(join(tmpdir(), 'lorebook-search-thread-'));
/** Where a thread configured with LOREBOOK_SEARCH_DIR=directory keeps this table's snapshots. */
const snapshots = () => searchSnapshotsInDirectory(join(directory, app.ctx().store.tableName));
const threads: IndexInThread[] = [];
afterAll(async () => {
  for (const thread of threads) await thread.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Long past any test: only a touch, never the log, brings a new story into an index. */
const REFRESH_MS = 600_000;

/** A search whose index answers from a thread of its own, configured as `npm start` configures it. */
function threadSearch(onStart?: (worker: Worker) => void): { search: StorySearch; thread: IndexInThread; lines: string[] } {
  const lines: string[] = [];
  const config = readConfig({
    LOREBOOK_TABLE: app.ctx().store.tableName,
    LOREBOOK_DATA_DIR: join(directory, 'data'),
    LOREBOOK_IMAGE_DIR: join(directory, 'images'),
    LOREBOOK_SEARCH_DIR: directory,
    LOREBOOK_SEARCH_REFRESH_MS: String(REFRESH_MS),
  });
  const thread = searchIndexInThread(config, testEndpoint(), {
    log: (line) => void lines.push(line),
    ...(onStart === undefined ? {} : { onStart }),
  });
  threads.push(thread);
  return { search: createStorySearch(app.ctx(), { answers: thread }), thread, lines };
}

const publish = async (title: string, extra?: string): Promise<string> =>
  (await publishStory(app.ctx(), alice, { markdown: storyTitled(title, extra === undefined ? {} : { extra }) })).slug;

const slugsOf = (page: { stories: { slug: string }[] }): string[] => page.stories.map((story) => story.slug);

beforeAll(async () => {
  await publish('Quokka counters doubled under concurrent retries', 'The quokka ledger kept a tally.');
  await publish('Quokka ledger replays after a crash', 'Replays of the quokka ledger.');
  await publish('Wombat caches went stale after deploys');
  await publish('Idempotent wombat writes with conditional puts');
  await publish('A third quokka story about retries');
  // The snapshot every index here loads first: what is published after it is found only when told.
  await runSnapshotJob(app.ctx(), snapshots());
}, 120_000);

describe("npm start's search index in a thread of its own", () => {
  it('answers searches, pages, suggestions, completions and similar stories exactly as an index held in this thread', async () => {
    const here = createStorySearch(app.ctx(), { snapshots: snapshots(), refreshMs: REFRESH_MS });
    const { search: there } = threadSearch();
    for (const input of [{ query: 'quokka' }, { query: 'wombat writes' }, { query: 'quok' }, {}, { query: 'quokka', limit: 1 }]) {
      expect(await there.search(input)).toEqual(await here.search(input));
    }
    // The next page through the cursor the thread's answer handed out.
    const first = await there.search({ query: 'quokka', limit: 2 });
    expect(first.cursor).toBeDefined();
    const input = { query: 'quokka', limit: 2, cursor: first.cursor };
    expect(await there.search(input)).toEqual(await here.search(input));
    expect(new Set([...slugsOf(first), ...slugsOf(await there.search(input))]).size).toBe(Math.min(first.total, 4));

    const context = { context: 'a ledger of quokka retries and wombat caches' };
    expect(await there.suggest(context)).toEqual(await here.suggest(context));
    expect((await there.suggest(context)).suggestions.length).toBeGreaterThan(0);
    const typed = (await there.search({})).stories[0]?.slug.slice(0, 14) ?? '';
    expect(await there.completeSlug(typed)).toEqual(await here.completeSlug(typed));
    expect((await there.completeSlug(typed)).values.length).toBeGreaterThan(0);
    const query = {
      slug: 'not-yet-published',
      type: 'success' as const,
      title: 'Quokka retries',
      tags: ['quokka'],
      stack: [],
      summary: 'Quokka ledger retries',
    };
    expect(await there.similar(query)).toEqual(await here.similar(query));
    expect((await there.similar(query)).length).toBeGreaterThan(0);
  });

  it('a story this process writes is found by the next search, whether the thread was running or not when told', async () => {
    const { search, thread } = threadSearch();
    expect((await search.search({ query: 'platypus' })).total).toBe(0);
    const whileRunning = await publish('Platypus tokens expired mid-request');
    search.invalidate(whileRunning);
    expect(slugsOf(await search.search({ query: 'platypus' }))).toEqual([whileRunning]);

    // No thread runs now; the next one loads the snapshot, which lacks both stories.
    await thread.close();
    const whileStopped = await publish('Platypus sessions survive restarts');
    search.invalidate(whileStopped);
    expect(slugsOf(await search.search({ query: 'platypus sessions' }))).toEqual([whileStopped]);
  });

  it('a thread that dies fails the question it held with the retryable store_unavailable; the next question starts another', async () => {
    const started: Worker[] = [];
    const { search, lines } = threadSearch((worker) => void started.push(worker));
    const held = search.search({ query: 'quokka' });
    await started[0]?.terminate();
    const error = await held.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(LorebookError);
    expect((error as LorebookError).toBody()).toMatchObject({ code: 'store_unavailable', retryable: true, retry_after_ms: 1000 });
    expect(lines.join('\n')).toMatch(/the search index thread ended .*the next search starts another/);

    expect((await search.search({ query: 'quokka' })).total).toBeGreaterThanOrEqual(3);
    expect(started).toHaveLength(2);
  });

  it("a store that does not answer fails the thread's question with the same typed error the serving thread's index gives", async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const config = readConfig({
      LOREBOOK_TABLE: app.ctx().store.tableName,
      LOREBOOK_DATA_DIR: join(directory, 'data'),
      LOREBOOK_IMAGE_DIR: join(directory, 'images'),
      LOREBOOK_SEARCH_DIR: directory,
    });
    const thread = searchIndexInThread(config, closed, { log: () => {} });
    threads.push(thread);
    const failure = (search: StorySearch): Promise<unknown> =>
      search.search({ query: 'quokka' }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const there = await failure(createStorySearch(app.ctx(), { answers: thread }));
    const here = await failure(createStorySearch(buildContext(config, closed)));
    expect(there).toBeInstanceOf(LorebookError);
    expect((there as LorebookError).toBody()).toEqual((here as LorebookError).toBody());
    expect((there as LorebookError).toBody()).toMatchObject({ code: 'store_unavailable', retryable: true });
  });
});

/** A loopback port nothing listens on: bound, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
