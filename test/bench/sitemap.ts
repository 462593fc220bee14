// The sitemap past 5,000 stories, against the sitemap as it was (test/bench/sitemap-before.ts, a
// single urlset that stops at 5,000) in the same run, over one DynamoDB Local and the hono app
// in-process: the index and a month's part at SMALL stories (all in one month), then at LARGE
// (the same month grown; a part holds half the 50,000-URL cap in stories, so LARGE is two full
// parts). Requests alternate within a round so every side sees the same machine load. Each figure
// is the p50 over the rounds; the claim is its ratio to the old sitemap at SMALL.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { consumeRateLimit, ipRateSubject } from '../../src/app/context/rate-limit.ts';
import { SITEMAP_MAX_URLS, storiesPerPart } from '../../src/app/queries/sitemap-parts.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';
import { sitemapBefore } from './sitemap-before.ts';
import { type BenchFeed, prepareFeed, writeStories } from './sitemap-stories.ts';
import { ms, percentile, ratio } from './stats.ts';

export interface SitemapPlan {
  small: number;
  large: number;
  authors: number;
  rounds: number;
}

export const SITEMAP_PLAN: SitemapPlan = { small: 5_000, large: 50_000, authors: 1_000, rounds: 5 };
export const SITEMAP_QUICK_PLAN: SitemapPlan = { small: 500, large: 5_000, authors: 100, rounds: 1 };

export interface SitemapMeasure {
  what: string;
  stories: number;
  p50: number;
  bytes: number;
  urls: number;
  /** DynamoDB calls of one request, by operation (the anonymous rate limit's UpdateItem included). */
  calls: Record<string, number>;
}

export interface SitemapBenchRun {
  plan: SitemapPlan;
  setupMs: number;
  measures: SitemapMeasure[];
}

const BASE = 'http://127.0.0.1:8787';
const BEFORE_PATH = '/bench/sitemap-before.xml';
const MONTH = '2026-11';

export async function runSitemapBench(ctx: AppContext, plan: SitemapPlan, log: (line: string) => void): Promise<SitemapBenchRun> {
  const feed: BenchFeed = { month: MONTH, authors: plan.authors };
  const app = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl: BASE, allowedOrigins: [] });
  // The reference is served by the same app and counts against the same anonymous budget, as it
  // did, so both sides pay the same HTTP and rate-limit costs.
  app.get(BEFORE_PATH, async (c) => {
    await consumeRateLimit(ctx, ipRateSubject('unknown'));
    return c.body(await sitemapBefore(ctx, BASE), 200, { 'Content-Type': 'application/xml; charset=utf-8' });
  });
  const counter = countRoundTrips(ctx.store.client);

  const get = async (path: string): Promise<{ ms: number; bytes: number; urls: number; calls: Record<string, number> }> => {
    counter.reset();
    const start = performance.now();
    const response = await app.request(`${BASE}${path}`, { headers: { host: '127.0.0.1:8787' } });
    const text = await response.text();
    const elapsed = performance.now() - start;
    if (response.status !== 200) throw new Error(`bench:sitemap: ${path} answered ${response.status}`);
    return { ms: elapsed, bytes: Buffer.byteLength(text), urls: text.match(/<loc>/g)?.length ?? 0, calls: counter.snapshot() };
  };
  const measures: SitemapMeasure[] = [];
  const phase = async (stories: number, sides: Array<{ what: string; path: string }>): Promise<void> => {
    for (const side of sides) await get(side.path); // warm-up, not counted
    const times = sides.map(() => [] as number[]);
    const last: Array<Awaited<ReturnType<typeof get>>> = [];
    for (let round = 0; round < plan.rounds; round += 1) {
      // Rotating who goes first, so no side always meets the warmest caches.
      for (let turn = 0; turn < sides.length; turn += 1) {
        const index = (turn + round) % sides.length;
        const result = await get((sides[index] as { path: string }).path);
        times[index]?.push(result.ms);
        last[index] = result;
      }
    }
    sides.forEach((side, index) => {
      const result = last[index] as Awaited<ReturnType<typeof get>>;
      const measure = {
        what: side.what,
        stories,
        p50: percentile(times[index] ?? [], 50),
        bytes: result.bytes,
        urls: result.urls,
        calls: result.calls,
      };
      measures.push(measure);
      log(
        `  ${stories} stories, ${side.what}: p50 ${ms(measure.p50)} ms, ${Math.round(measure.bytes / 1024)} KiB, ${measure.urls} URLs, calls ${JSON.stringify(measure.calls)}`,
      );
    });
  };

  const setupStart = performance.now();
  await prepareFeed(ctx.store, feed);
  await writeStories(ctx.store, feed, 0, plan.small);
  let setupMs = performance.now() - setupStart;
  log(`  wrote ${plan.small} stories in ${ms(setupMs)} ms`);
  await phase(plan.small, [
    { what: 'before: /sitemap.xml (one urlset, stops at 5,000)', path: BEFORE_PATH },
    { what: 'index /sitemap.xml', path: '/sitemap.xml' },
    { what: `month part /sitemap/${MONTH}.xml`, path: `/sitemap/${MONTH}.xml` },
  ]);
  const growStart = performance.now();
  await writeStories(ctx.store, feed, plan.small, plan.large);
  setupMs += performance.now() - growStart;
  log(`  grew the month to ${plan.large} stories in ${ms(performance.now() - growStart)} ms`);
  await phase(plan.large, [
    { what: 'before: /sitemap.xml (one urlset, stops at 5,000)', path: BEFORE_PATH },
    { what: 'index /sitemap.xml', path: '/sitemap.xml' },
    { what: `month part 1 /sitemap/${MONTH}.xml`, path: `/sitemap/${MONTH}.xml` },
    ...(plan.large > storiesPerPart(SITEMAP_MAX_URLS)
      ? [{ what: `month part 2 /sitemap/${MONTH}-p2.xml`, path: `/sitemap/${MONTH}-p2.xml` }]
      : []),
  ]);
  counter.detach();
  return { plan, setupMs, measures };
}

export const SITEMAP_HEADING = '## 6. Sitemaps past 5,000: the sitemap index and a month part vs the old single sitemap';

const callsText = (calls: Record<string, number>): string =>
  Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, count]) => `${operation} ${count}`)
    .join(', ');

export function sitemapSection(run: SitemapBenchRun, command: string): string[] {
  const reference = run.measures.find((measure) => measure.stories === run.plan.small && measure.what.startsWith('before'));
  const refP50 = reference?.p50 ?? Number.NaN;
  const refUrls = reference?.urls ?? Number.NaN;
  return [
    SITEMAP_HEADING,
    '',
    `Command: \`${command}\`. ${run.plan.small.toLocaleString('en')} then ${run.plan.large.toLocaleString('en')} stories in one feed month by ${run.plan.authors.toLocaleString('en')} authors, written straight into DynamoDB Local (${ms(run.setupMs)} ms); each figure the p50 of ${run.plan.rounds} requests through the hono app in-process, sides interleaved. The reference is the sitemap as it was (\`test/bench/sitemap-before.ts\`), at ${run.plan.small.toLocaleString('en')} stories, in the same run. A part holds at most 25,000 stories (half the 50,000-URL cap, so its authors fit too).`,
    '',
    `| stories | request | p50 ms | p50 / before at ${run.plan.small.toLocaleString('en')} | per URL / before's per URL | size | URLs | DynamoDB calls per request |`,
    '|---|---|---|---|---|---|---|---|',
    ...run.measures.map(
      (measure) =>
        `| ${measure.stories.toLocaleString('en')} | ${measure.what} | ${ms(measure.p50)} | ${ratio(measure.p50 / refP50)} | ${measure.what.startsWith('index') ? '–' : ratio(measure.p50 / measure.urls / (refP50 / refUrls))} | ${Math.round(measure.bytes / 1024)} KiB | ${measure.urls.toLocaleString('en')} | ${callsText(measure.calls)} |`,
    ),
    '',
    "What it says: the old sitemap never lists more than 5,000 stories, so past that the index and its parts are the only way every story is listed. A part costs one key-ordered Query per thousand stories (twice that for a later part, which first counts past the earlier ones) and one projected BatchGetItem per hundred stories and per hundred authors; the index counts each month's index keys (one Query per thousand stories) and reads no story, so it grows with the stories like a later part's Queries do; it lists sitemaps, not pages, so it has no per-URL figure. The per-URL column compares a part with the old sitemap fairly. DynamoDB Local pages a large index partition far slower than DynamoDB does (the reason for a thousand keys a round trip: src/store/story/feed-month-keys.ts), so the absolute times here overstate AWS's.",
    '',
  ];
}
