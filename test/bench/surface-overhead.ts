// (b) The cost of lorebook's layers: report_reproduction end to end through MCP (SDK client ->
// HTTP -> Host/Origin guard -> token -> rate window -> snapshot read -> plan -> transaction ->
// JSON-RPC answer, validated against the output schema) versus a bare TransactWriteItems of the
// same items on the same store, at the same concurrency.
import type { AppContext, Caller } from '../../src/app/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { storyTitled } from '../helpers/stories.ts';
import type { Agent } from './agents.ts';
import { REPORT_NOTE, sendBareReport } from './bare-report.ts';
import type { LorebookProcess } from './lorebook-process.ts';
import { percentile, runConcurrently } from './stats.ts';

export const AUTHOR: Caller = { account: 'acct-bench-author', handle: 'bench-author' };

export interface SurfaceRun {
  concurrency: number;
  calls: number;
  mcp: { p50: number; p99: number; perSecond: number };
  bare: { p50: number; p99: number; perSecond: number };
  /** DynamoDB calls the server made per tool call, by operation. */
  serverCalls: Record<string, number>;
}

let stories = 0;
let order = 0;

/** Fresh public stories by the bench author, so every report in a phase is a first report. */
export async function freshStories(ctx: AppContext, count: number, tag: string): Promise<{ slug: string; title: string }[]> {
  const made: { slug: string; title: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    stories += 1;
    const title = `Bench ${tag} story ${stories}`;
    const answer = await publishStory(ctx, AUTHOR, { markdown: storyTitled(title) });
    made.push({ slug: answer.slug, title });
  }
  return made;
}

export async function runSurfaceOnce(
  ctx: AppContext,
  server: LorebookProcess,
  agents: readonly Agent[],
  concurrency: number,
  calls: number,
): Promise<SurfaceRun> {
  const perStory = agents.length;
  const storyCount = Math.ceil(calls / perStory);
  // Call i: agent i mod n on story i div n — distinct (story, account) pairs, so each is a first
  // report; the bare reference writes the same pairs' items for other accounts on other stories.
  const mcpStories = await freshStories(ctx, storyCount, `mcp-c${concurrency}`);
  const bareStories = await freshStories(ctx, storyCount, `bare-c${concurrency}`);

  const mcp = async (): Promise<{ latencies: number[]; wall: number; roundTrips: Record<string, number> }> => {
    await server.resetRoundTrips();
    const start = performance.now();
    const latencies = await runConcurrently(calls, concurrency, async (index) => {
      const agent = agents[index % perStory] as Agent;
      const story = mcpStories[Math.floor(index / perStory)] as { slug: string };
      const answer = await agent.call('report_reproduction', { slug: story.slug, result: 'worked', note: REPORT_NOTE });
      if (answer.counted !== true) throw new Error(`report_reproduction did not count: ${JSON.stringify(answer)}`);
    });
    const wall = performance.now() - start;
    return { latencies, wall, roundTrips: (await server.stats()).roundTrips };
  };
  const bare = async (): Promise<{ latencies: number[]; wall: number }> => {
    const start = performance.now();
    const latencies = await runConcurrently(calls, concurrency, async (index) => {
      const agent = agents[index % perStory] as Agent;
      const story = bareStories[Math.floor(index / perStory)] as { slug: string; title: string };
      await sendBareReport(ctx.store.client, ctx.store.tableName, {
        slug: story.slug,
        title: story.title,
        author: AUTHOR.account,
        account: `${agent.account}-bare`,
        handle: agent.handle,
      });
    });
    return { latencies, wall: performance.now() - start };
  };
  // Alternate which goes first from run to run, so neither always meets a warmer or cooler machine.
  const mcpFirst = (order += 1) % 2 === 1;
  const bareFirst = mcpFirst ? undefined : await bare();
  const viaMcp = await mcp();
  const viaBare = bareFirst ?? (await bare());

  return {
    concurrency,
    calls,
    mcp: { p50: percentile(viaMcp.latencies, 50), p99: percentile(viaMcp.latencies, 99), perSecond: (calls / viaMcp.wall) * 1000 },
    bare: { p50: percentile(viaBare.latencies, 50), p99: percentile(viaBare.latencies, 99), perSecond: (calls / viaBare.wall) * 1000 },
    serverCalls: Object.fromEntries(Object.entries(viaMcp.roundTrips).map(([operation, n]) => [operation, n / calls])),
  };
}
