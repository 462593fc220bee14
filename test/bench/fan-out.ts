// (c) Fan-out: 64 distinct agents report on one story at once, then all 64 send the same report
// again (a retry after a timeout). Exactly 64 must be counted, and every call answered. The
// reference is 64 bare TransactWriteItems of the same items on one story, at once.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { storyKey } from '../../src/store/keys.ts';
import { readItem } from '../../src/store/read-items.ts';
import type { Agent } from './agents.ts';
import { REPORT_NOTE, sendBareReport } from './bare-report.ts';
import { AUTHOR, freshStories } from './surface-overhead.ts';

export interface FanOutRun {
  agents: number;
  /** counts.worked and the reproducer list's size after the first wave and after the retries. */
  countedAfterFirst: number;
  countedAfterRetry: number;
  reproducersAfterRetry: number;
  answeredFirst: number;
  answeredRetry: number;
  firstWaveMs: number;
  retryWaveMs: number;
  bareWaveMs: number;
}

export async function runFanOutOnce(ctx: AppContext, agents: readonly Agent[]): Promise<FanOutRun> {
  const [story, bareStory] = (await freshStories(ctx, 2, 'fan-out')) as [{ slug: string; title: string }, { slug: string; title: string }];
  const wave = async (): Promise<{ ms: number; answered: number }> => {
    const start = performance.now();
    const settled = await Promise.allSettled(
      agents.map((agent) => agent.call('report_reproduction', { slug: story.slug, result: 'worked', note: REPORT_NOTE })),
    );
    return { ms: performance.now() - start, answered: settled.filter((s) => s.status === 'fulfilled').length };
  };
  const counted = async (slug: string): Promise<{ worked: number; reproducers: number }> => {
    const meta = await readItem(ctx.store, storyKey(slug));
    const counts = meta?.counts as { worked?: number } | undefined;
    return { worked: counts?.worked ?? 0, reproducers: (meta?.reproducers as Set<string> | undefined)?.size ?? 0 };
  };

  const first = await wave();
  const afterFirst = await counted(story.slug);
  const retry = await wave();
  const afterRetry = await counted(story.slug);

  const bareStart = performance.now();
  await Promise.all(
    agents.map((agent) =>
      sendBareReport(ctx.store.client, ctx.store.tableName, {
        slug: bareStory.slug,
        title: bareStory.title,
        author: AUTHOR.account,
        account: agent.account,
        handle: agent.handle,
      }),
    ),
  );
  const bareWaveMs = performance.now() - bareStart;

  return {
    agents: agents.length,
    countedAfterFirst: afterFirst.worked,
    countedAfterRetry: afterRetry.worked,
    reproducersAfterRetry: afterRetry.reproducers,
    answeredFirst: first.answered,
    answeredRetry: retry.answered,
    firstWaveMs: first.ms,
    retryWaveMs: retry.ms,
    bareWaveMs,
  };
}
