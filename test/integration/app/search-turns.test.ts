// The search index's turns (src/offload/cpu-slots.ts `search`): one question at a time, in turn
// among callers, bounded like the offload workers' queue, over the real index and DynamoDB Local.
// At 100,000 stories a question holds the index ~0.3 s (BENCHMARKS.md §8); these stories are a
// few, so the index is wrapped in a stand-in (named as such: slowIndex) that holds each question
// that long before the real index answers it.
import { describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import type { IndexAnswers } from '../../../src/app/search/index-answers.ts';
import { localIndexAnswers } from '../../../src/app/search/local-index-answers.ts';
import { searchAs } from '../../../src/app/search/search-as.ts';
import { createStorySearch, type StorySearch } from '../../../src/app/search/story-search.ts';
import { LorebookError } from '../../../src/domain/errors.ts';
import { createHttpApp } from '../../../src/http/app.ts';
import { type CpuSettings, createCpuSlots, defaultCpuSettings } from '../../../src/offload/cpu-slots.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { topicStory } from '../../helpers/topic-stories.ts';

const app = useAppFixture('search-turns');

/**
 * Stand-in for a large index: every question is held until `hold()` resolves (a timer, or a gate
 * the test opens) before the real index answers it; counts the questions asked.
 */
function slowIndex(answers: IndexAnswers, hold: () => Promise<void>): IndexAnswers & { asked(): number; touched: string[] } {
  let asked = 0;
  const touched: string[] = [];
  const held = async <T>(answer: () => Promise<T>): Promise<T> => {
    asked += 1;
    await hold();
    return answer();
  };
  return {
    rank: (query, offset, count) => held(() => answers.rank(query, offset, count)),
    suggest: (terms, count) => held(() => answers.suggest(terms, count)),
    similar: (query) => held(() => answers.similar(query)),
    completeSlug: (typed) => held(() => answers.completeSlug(typed)),
    touch: (slug) => {
      touched.push(slug);
      answers.touch(slug);
    },
    forget: () => answers.forget(),
    asked: () => asked,
    touched,
  };
}

const forMs = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `GET /v1/stories?q=kafka` through the HTTP API from `address` (the test names each request's client address), cut when `signal` aborts. */
function httpSearch(ctx: AppContext, search: StorySearch): (address: string, signal?: AbortSignal) => Promise<Response> {
  const hono = createHttpApp({
    ctx,
    search,
    baseUrl: 'http://lorebook.test',
    allowedOrigins: [],
    clientAddress: (c) => c.req.header('x-test-address'),
  });
  return async (address, signal) =>
    hono.request(
      new Request('http://lorebook.test/v1/stories?q=kafka', {
        headers: { host: 'lorebook.test', 'x-test-address': address },
        ...(signal === undefined ? {} : { signal }),
      }),
    );
}

/** A hold for slowIndex: the first question waits until the test calls `open`; every later one is answered at once. */
function gateFirstQuestion(): { open: () => void; hold: () => Promise<void> } {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let questions = 0;
  return { open: () => open(), hold: () => (++questions === 1 ? gate : Promise.resolve()) };
}

/** The app's context with CPU slots of its own (the search turns among them), and a search over the held index. */
function searchWithTurns(
  hold: () => Promise<void>,
  settings: Partial<CpuSettings> = {},
): { ctx: AppContext; search: StorySearch; index: ReturnType<typeof slowIndex> } {
  const ctx: AppContext = { ...app.ctx(), cpu: createCpuSlots({ ...defaultCpuSettings(), ...settings }) };
  const index = slowIndex(localIndexAnswers(ctx, { refreshMs: 0, now: Date.now }), hold);
  return { ctx, search: createStorySearch(ctx, { answers: index }), index };
}

describe('the search index takes one question at a time, in turn among callers', () => {
  it("one caller's burst of searches does not keep another caller's search waiting: the other's waits for at most two of the burst's", async () => {
    const { search } = searchWithTurns(forMs(60));
    const answered: string[] = [];
    const ask = (who: string) =>
      searchAs(search, who)
        .search({ query: 'kafka' })
        .then(() => answered.push(who));
    const burst = Array.from({ length: 8 }, () => ask('ip:10.0.0.1'));
    const other = ask('ip:10.0.0.2');
    await Promise.all([...burst, other]);
    // Asked all at once (or first come, first served), the other caller's search would come back
    // last; in turn it waits for the burst's question running and at most one already waiting.
    expect(answered.indexOf('ip:10.0.0.2')).toBeLessThanOrEqual(2);
    expect(answered).toHaveLength(9);
  });

  it("a caller past its share is refused at once, as rate_limited with retry_after_ms, and its question is never asked; the others' are answered", async () => {
    const { search, index } = searchWithTurns(forMs(20), { perCallerWaiting: 2 });
    const mine = searchAs(search, 'ip:10.0.0.3');
    const held = [mine.search({ query: 'kafka' }), mine.search({ query: 'kafka' }), mine.search({ query: 'kafka' })];
    const refused = await refusal(mine.suggest({ context: 'kafka consumers rebalancing' }));
    expect(refused.code).toBe('rate_limited');
    expect(refused.retryable).toBe(true);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.details).toEqual({ reason: 'cpu_share' });
    expect(refused.message).toMatch(/^Busy: your share of the search index is in use\. Nothing was done/);
    await Promise.all(held);
    expect(index.asked()).toBe(3);
  });

  it('a question that waits past the bound is refused; a publish whose similar is refused so is published, with no similar, and answers the same again', async () => {
    const { open, hold } = gateFirstQuestion();
    const { ctx, search, index } = searchWithTurns(hold, { maxWaitMs: 200 });
    // Held past the bound, the first caller is answered too (below); its question keeps the turn.
    const holding = refusal(searchAs(search, 'ip:10.0.0.4').search({ query: 'kafka' }));
    const late = await refusal(searchAs(search, 'ip:10.0.0.5').search({ query: 'kafka' }));
    expect(late.details).toEqual({ reason: 'cpu_wait' });
    expect(late.message).toMatch(/^Busy: the search index did not come free in time\./);

    const bob = caller('bob');
    const raw = {
      markdown: topicStory({ title: 'Kafka consumers rebalanced under load', tags: ['kafka'], stack: ['java'], summary: 'Rebalances.' }),
    };
    const first = await publishStory(ctx, bob, raw, searchAs(search, 'account:acct-bob'));
    expect(first.similar).toEqual([]);
    expect((await holding).details).toEqual({ reason: 'answer_wait' });
    open();
    // Asked again with the index free, the second landing answers the first's list.
    const again = await publishStory(ctx, bob, raw, searchAs(search, 'account:acct-bob'));
    expect(again).toMatchObject({ slug: first.slug, similar: [] });
    // The holding search, then the second publish's question: the refused ones never reached the index.
    expect(index.asked()).toBe(2);
  });

  it("a question the index does not answer within the bound (the load after a start) is refused, not waited out; the load keeps the index's turn and the next question waits for it", async () => {
    const { open, hold } = gateFirstQuestion();
    const { search, index } = searchWithTurns(hold, { maxWaitMs: 300 });
    const loading = await refusal(searchAs(search, 'ip:10.0.0.7').search({ query: 'kafka' }));
    expect(loading).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 300, details: { reason: 'answer_wait' } });
    expect(loading.message).toMatch(
      /^Busy: the search index did not answer in time \(after a start, its first question loads it whole\)\. Nothing was done; send the same call again after retry_after_ms \(300 ms\)\.$/,
    );
    // The load still holds the turn: another caller's question waits its bound for it and is never asked meanwhile.
    const next = await refusal(searchAs(search, 'ip:10.0.0.8').search({ query: 'kafka' }));
    expect(next.details).toEqual({ reason: 'cpu_wait' });
    expect(index.asked()).toBe(1);
    open();
    await expect(searchAs(search, 'ip:10.0.0.8').search({ query: 'kafka' })).resolves.toMatchObject({ total: expect.any(Number) });
    expect(index.asked()).toBe(2);
  });

  it('a publish whose similar the index does not answer within the bound is published with no similar, and answers the same again', async () => {
    const { open, hold } = gateFirstQuestion();
    const { ctx, search } = searchWithTurns(hold, { maxWaitMs: 300 });
    const raw = { markdown: topicStory({ title: 'Kafka lag after a deploy', tags: ['kafka'], stack: ['java'], summary: 'Lag.' }) };
    const erin = caller('erin');
    const first = await publishStory(ctx, erin, raw, searchAs(search, 'account:acct-erin'));
    expect(first.similar).toEqual([]);
    open();
    await expect(publishStory(ctx, erin, raw, searchAs(search, 'account:acct-erin'))).resolves.toEqual(first);
  });

  it("through the HTTP API each address's searches take that address's turn", async () => {
    const { ctx, search } = searchWithTurns(forMs(200));
    const searchFrom = httpSearch(ctx, search);
    const answered: string[] = [];
    const ask = async (address: string) => {
      const response = await searchFrom(address);
      expect(response.status).toBe(200);
      answered.push(address);
    };
    const burst = Array.from({ length: 8 }, () => ask('10.0.1.1'));
    await Promise.all([...burst, ask('10.0.1.2')]);
    expect(answered.indexOf('10.0.1.2')).toBeLessThanOrEqual(2);
  });

  it("through the HTTP API a search whose connection closes while it waits is withdrawn: never asked, and its place is the address's again", async () => {
    const { open, hold } = gateFirstQuestion();
    const { ctx, search, index } = searchWithTurns(hold, { perCallerWaiting: 0 });
    const ask = httpSearch(ctx, search);
    const holding = ask('10.0.2.1');
    await vi.waitFor(() => expect(index.asked()).toBe(1));
    const connection = new AbortController();
    const cut = ask('10.0.2.2', connection.signal);
    // Waiting, it holds the address's one place: another search from there is refused for its share.
    const refused = await ask('10.0.2.2');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ details: { reason: 'cpu_share' } });
    connection.abort();
    expect(await (await cut).json()).toMatchObject({ code: 'rate_limited', details: { reason: 'withdrawn' } });
    const again = ask('10.0.2.2');
    open();
    expect((await holding).status).toBe(200);
    expect((await again).status).toBe(200);
    // The holding search and the one sent again: the withdrawn one never reached the index.
    expect(index.asked()).toBe(2);
  });

  it("a publish whose similar fails for another reason (the index's thread died) is refused and writes nothing", async () => {
    const died = new LorebookError('store_unavailable', 'The search index stopped and is loading again.', { retryAfterMs: 1000 });
    const { ctx, search } = searchWithTurns(() => Promise.reject(died));
    const before = await app.state();
    const raw = { markdown: topicStory({ title: 'Kafka offsets lost on restart', tags: ['kafka'], stack: ['java'], summary: 'Offsets.' }) };
    const error = await refusal(publishStory(ctx, caller('carol'), raw, searchAs(search, 'account:acct-carol')));
    expect(error.code).toBe('store_unavailable');
    expect(await app.state()).toEqual(before);
  });

  it("slug completion takes the caller's turn too, and a story changed is still told to the index", async () => {
    const { search, index } = searchWithTurns(forMs(1));
    const mine = searchAs(search, 'ip:10.0.0.6');
    const asked = index.asked();
    expect(await mine.completeSlug('20')).toEqual(await search.completeSlug('20'));
    expect(index.asked()).toBe(asked + 2);
    mine.invalidate('2026-12-04-a-story-changed');
    expect(index.touched).toEqual(['2026-12-04-a-story-changed']);
  });
});
