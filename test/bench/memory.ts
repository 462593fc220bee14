// (d) Memory: a fresh server process, 10,000 tool calls through MCP (writes and reads mixed), its
// RSS sampled along the way; the reference is its own RSS after the first 500 calls (warm).
import type { AppContext } from '../../src/app/context/app-context.ts';
import { type AgentAccount, connectAgents } from './agents.ts';
import { startLorebookProcess } from './lorebook-process.ts';
import { runConcurrently } from './stats.ts';
import { freshStories } from './surface-overhead.ts';

export interface MemoryRun {
  calls: number;
  idleRss: number;
  warmRss: number;
  /** RSS after each sampled number of calls. */
  samples: { calls: number; rss: number }[];
  finalRss: number;
  /** Heap in use after a full GC at the end: what is actually retained. */
  heapAfterGc: number;
  rssAfterGc: number;
  perSecond: number;
}

const RESULTS = ['worked', 'partial', 'failed'] as const;
export const WARM_CALLS = 500;

export async function runMemoryOnce(
  ctx: AppContext,
  endpoint: string,
  accounts: readonly AgentAccount[],
  calls: number,
  concurrency: number,
  progress: (line: string) => void,
): Promise<MemoryRun> {
  const server = await startLorebookProcess(endpoint, ctx.store.tableName);
  try {
    const idleRss = (await server.stats()).rss;
    const agents = await connectAgents(server.baseUrl, accounts);
    const stories = await freshStories(ctx, 20, 'memory');
    const marks = [...new Set([WARM_CALLS, Math.round(calls / 4), Math.round(calls / 2), Math.round((3 * calls) / 4), calls])]
      .filter((mark) => mark > 0 && mark <= calls)
      .sort((a, b) => a - b);
    const samples: { calls: number; rss: number }[] = [];
    let done = 0;
    const start = performance.now();
    for (const mark of marks) {
      const from = done;
      await runConcurrently(mark - from, concurrency, async (offset) => {
        const index = from + offset;
        const agent = agents[index % agents.length] as (typeof agents)[number];
        const story = stories[Math.floor(index / agents.length) % stories.length] as { slug: string };
        // A mix: half writes (first and changed reports), half reads.
        switch (index % 10) {
          case 0:
          case 1:
          case 2:
          case 3:
          case 4:
            await agent.call('report_reproduction', {
              slug: story.slug,
              result: RESULTS[Math.floor(index / (agents.length * stories.length)) % RESULTS.length],
              note: 'Memory run.',
            });
            break;
          case 5:
          case 6:
          case 7:
            await agent.call('get_story', { slug: story.slug });
            break;
          case 8:
            await agent.call('search_stories', { query: 'counter' });
            break;
          default:
            await agent.call('list_notifications', {});
        }
      });
      done = mark;
      const rss = (await server.stats()).rss;
      samples.push({ calls: mark, rss });
      progress(`    ${mark} calls: server RSS ${(rss / 1024 / 1024).toFixed(1)} MiB`);
    }
    const perSecond = (calls / (performance.now() - start)) * 1000;
    await Promise.all(agents.map((agent) => agent.close()));
    const afterGc = await server.stats({ gc: true });
    return {
      calls,
      idleRss,
      warmRss: (samples.find((sample) => sample.calls === WARM_CALLS) ?? samples[0])?.rss ?? Number.NaN,
      samples,
      finalRss: samples[samples.length - 1]?.rss ?? Number.NaN,
      heapAfterGc: afterGc.heapUsed,
      rssAfterGc: afterGc.rss,
      perSecond,
    };
  } finally {
    await server.stop();
  }
}
