// (e) Markdown cost: the issue's hostile shapes and the worst shapes still accepted, published and
// viewed over HTTP against the real server process, each next to the reference of a plain prose
// story of the same size measured in the same run; GET / answered all along (its latency, and
// the longest the server's event loop was held); the server's RSS over 100 views of the
// worst accepted story; and, for contrast, the renderer alone on each hostile text with no limits,
// stopped at a budget.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { HOSTILE_CASES, NARRATIVE_BYTES, storyWithNarrative, WORST_ACCEPTED } from '../helpers/hostile-markdown.ts';
import { startLorebookProcess } from './lorebook-process.ts';
import { percentile } from './stats.ts';
import { renderUnlimited } from './unlimited-render.ts';

export interface MarkdownCostRun {
  hostile: Array<{ name: string; limit: string; status: number; ms: number; referenceMs: number; unlimitedMs: number | undefined }>;
  accepted: Array<{ name: string; publishMs: number; viewMs: number; referencePublishMs: number; referenceViewMs: number }>;
  unlimitedBudgetMs: number;
  home: { aloneP50: number; aloneMax: number; duringP50: number; duringMax: number; answered: number };
  loopHeldMs: { alone: number; during: number };
  views: { count: number; pageBytes: number; rssBefore: number; rssAfter: number; rssAfterGc: number };
}

const UNLIMITED_BUDGET_MS = 3_000;
const VIEWS = 100;
const prose = (): string =>
  `${'I retried the write after a timeout and the counter moved twice, so I read the docs again. '.repeat(6)}\n\n`.repeat(
    Math.floor(NARRATIVE_BYTES / 560),
  );

export async function runMarkdownCostOnce(ctx: AppContext, endpoint: string, log: (line: string) => void): Promise<MarkdownCostRun> {
  const { token } = await createToken(ctx, { handle: 'bench-markdown', expiresInSeconds: 3600 });
  const server = await startLorebookProcess(endpoint, ctx.store.tableName);
  let stories = 0;
  const timedFetch = async (path: string, init?: RequestInit): Promise<{ ms: number; status: number; body: string }> => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}${path}`, init);
    const body = await response.text();
    return { ms: performance.now() - started, status: response.status, body };
  };
  const publish = (narrative: string) => {
    stories += 1;
    return timedFetch('/v1/stories', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/markdown' },
      body: storyWithNarrative(`Markdown cost ${stories}`, narrative),
    });
  };
  const publishAndView = async (narrative: string) => {
    const published = await publish(narrative);
    if (published.status !== 201) throw new Error(`publish answered ${published.status}: ${published.body.slice(0, 300)}`);
    const { slug } = JSON.parse(published.body) as { slug: string };
    return { slug, publishMs: published.ms, viewMs: (await timedFetch(`/s/${slug}`)).ms };
  };
  const homeUntil = async (stop: Promise<unknown>): Promise<number[]> => {
    let done = false;
    void stop.finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) latencies.push((await timedFetch('/')).ms);
    return latencies;
  };
  try {
    await publishAndView(prose()); // warm-up, not counted
    await server.stats();
    const alone = await homeUntil(new Promise((resolve) => setTimeout(resolve, 3_000)));
    const loopAlone = (await server.stats()).loopDelayMaxMs;

    const hostile: MarkdownCostRun['hostile'] = [];
    const accepted: MarkdownCostRun['accepted'] = [];
    const load = (async () => {
      for (const entry of HOSTILE_CASES) {
        const refused = await publish(entry.narrative);
        const reference = await publishAndView(prose());
        hostile.push({
          name: entry.name,
          limit: entry.limit,
          status: refused.status,
          ms: refused.ms,
          referenceMs: reference.publishMs,
          unlimitedMs: undefined,
        });
        log(`  ${entry.name}: ${refused.status} in ${refused.ms.toFixed(0)} ms (plain story publish ${reference.publishMs.toFixed(0)} ms)`);
      }
      for (const entry of WORST_ACCEPTED) {
        const worst = await publishAndView(entry.narrative);
        const reference = await publishAndView(prose());
        accepted.push({
          name: entry.name,
          publishMs: worst.publishMs,
          viewMs: worst.viewMs,
          referencePublishMs: reference.publishMs,
          referenceViewMs: reference.viewMs,
        });
        log(
          `  ${entry.name}: publish ${worst.publishMs.toFixed(0)} ms, first view ${worst.viewMs.toFixed(0)} ms (plain: ${reference.publishMs.toFixed(0)} / ${reference.viewMs.toFixed(0)} ms)`,
        );
      }
    })();
    const during = await homeUntil(load);
    await load;
    const loopDuring = (await server.stats()).loopDelayMaxMs;
    log(
      `  GET / alone p50 ${percentile(alone, 50).toFixed(0)} ms max ${Math.max(...alone).toFixed(0)} ms; during ${percentile(during, 50).toFixed(0)} / ${Math.max(...during).toFixed(0)} ms; event loop held at most ${loopAlone.toFixed(0)} ms alone, ${loopDuring.toFixed(0)} ms during`,
    );

    const largest = WORST_ACCEPTED.find((entry) => entry.name.includes('tables')) ?? WORST_ACCEPTED[0];
    const published = await publish(largest?.narrative ?? '');
    const { slug } = JSON.parse(published.body) as { slug: string };
    const rssBefore = (await server.stats({ gc: true })).rss;
    let pageBytes = 0;
    for (let view = 0; view < VIEWS; view += 1) pageBytes = Math.max(pageBytes, Buffer.byteLength((await timedFetch(`/s/${slug}`)).body));
    const rssAfter = (await server.stats()).rss;
    const rssAfterGc = (await server.stats({ gc: true })).rss;
    log(
      `  ${VIEWS} views of a ${pageBytes}-byte page: RSS ${(rssBefore / 2 ** 20).toFixed(1)} -> ${(rssAfter / 2 ** 20).toFixed(1)} MiB (${(rssAfterGc / 2 ** 20).toFixed(1)} after GC)`,
    );

    for (const [index, entry] of HOSTILE_CASES.entries()) {
      const ms = await renderUnlimited(index, UNLIMITED_BUDGET_MS);
      const row = hostile[index];
      if (row !== undefined) row.unlimitedMs = ms;
      log(
        `  unlimited render of ${entry.name}: ${ms === undefined ? `stopped at ${UNLIMITED_BUDGET_MS} ms or out of memory` : `${ms.toFixed(0)} ms`}`,
      );
    }
    return {
      hostile,
      accepted,
      unlimitedBudgetMs: UNLIMITED_BUDGET_MS,
      home: {
        aloneP50: percentile(alone, 50),
        aloneMax: Math.max(...alone),
        duringP50: percentile(during, 50),
        duringMax: Math.max(...during),
        answered: during.length,
      },
      loopHeldMs: { alone: loopAlone, during: loopDuring },
      views: { count: VIEWS, pageBytes, rssBefore, rssAfter, rssAfterGc },
    };
  } finally {
    await server.stop();
  }
}
