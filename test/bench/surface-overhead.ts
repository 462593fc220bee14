// (b) The cost of lorebook's layers: report_reproduction end to end through MCP (SDK client ->
// HTTP -> Host/Origin guard -> token -> rate window -> snapshot read -> plan -> transaction ->
// JSON-RPC answer, validated against the output schema) versus a bare TransactWriteItems of the
// same items on the same store, at the same concurrency; and the physical limit of a write tool
// call, the tool's own snapshot read then that transaction, in sequence from the bench process,
// and the same with the rate count beside the read (the server's DynamoDB calls, no surface).
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { storyTitled } from '../helpers/stories.ts';
import type { Agent } from './agents.ts';
import { type BareReport, REPORT_NOTE, sendBareReadThenReport, sendBareReport, sendCountedReadThenReport } from './bare-report.ts';
import type { LorebookProcess } from './lorebook-process.ts';
import { percentile, runConcurrently } from './stats.ts';

export const AUTHOR: Caller = { account: 'acct-bench-author', handle: 'bench-author' };

export interface SurfaceRun {
  concurrency: number;
  calls: number;
  mcp: { p50: number; p99: number; perSecond: number };
  bare: { p50: number; p99: number; perSecond: number };
  /** The physical limit: the snapshot read, then the transaction (bare-report.ts). */
  limit: { p50: number; p99: number; perSecond: number };
  /** The server's DynamoDB calls with no surface: the limit with the rate count beside the read. */
  storeCalls: { p50: number; p99: number; perSecond: number };
  /** DynamoDB calls the server made per tool call, by operation. */
  serverCalls: Record<string, number>;
}

interface Measured {
  latencies: number[];
  wall: number;
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
  const limitStories = await freshStories(ctx, storyCount, `limit-c${concurrency}`);
  const storeStories = await freshStories(ctx, storyCount, `store-c${concurrency}`);

  const mcp = async (): Promise<Measured & { roundTrips: Record<string, number> }> => {
    // Steady traffic: each agent's token as the server remembers it from a call in the last 30 s
    // (a ping, not counted). A phase of the other sides can take longer than that, and a cold
    // token's extra reads are test/e2e/round-trips-per-call.test.ts's to count, not this figure's.
    await Promise.all(agents.map((agent) => agent.ping()));
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
  // The same pairs' items for other accounts on other stories, so each is a first write too.
  const direct =
    (stories: { slug: string; title: string }[], suffix: string, send: (report: BareReport) => Promise<void>) =>
    async (): Promise<Measured> => {
      const start = performance.now();
      const latencies = await runConcurrently(calls, concurrency, async (index) => {
        const agent = agents[index % perStory] as Agent;
        const story = stories[Math.floor(index / perStory)] as { slug: string; title: string };
        await send({
          slug: story.slug,
          title: story.title,
          author: AUTHOR.account,
          account: `${agent.account}-${suffix}`,
          handle: agent.handle,
        });
      });
      return { latencies, wall: performance.now() - start };
    };
  const bare = direct(bareStories, 'bare', (report) => sendBareReport(ctx.store.client, ctx.store.tableName, report));
  const limit = direct(limitStories, 'limit', (report) => sendBareReadThenReport(ctx.store.client, ctx.store.tableName, report));
  const storeCalls = direct(storeStories, 'store', (report) => sendCountedReadThenReport(ctx.store.client, ctx.store.tableName, report));
  // Rotate which goes first from run to run, so none always meets a warmer or cooler machine.
  order += 1;
  const sides = [mcp, bare, limit, storeCalls] as const;
  const results: Measured[] = [];
  for (let step = 0; step < sides.length; step += 1) {
    const at = (order + step) % sides.length;
    results[at] = await (sides[at] as () => Promise<Measured>)();
  }
  const [viaMcp, viaBare, viaLimit, viaStore] = results as [
    Measured & { roundTrips: Record<string, number> },
    Measured,
    Measured,
    Measured,
  ];
  const figures = (measured: Measured): SurfaceRun['mcp'] => ({
    p50: percentile(measured.latencies, 50),
    p99: percentile(measured.latencies, 99),
    perSecond: (calls / measured.wall) * 1000,
  });

  return {
    concurrency,
    calls,
    mcp: figures(viaMcp),
    bare: figures(viaBare),
    limit: figures(viaLimit),
    storeCalls: figures(viaStore),
    serverCalls: Object.fromEntries(Object.entries(viaMcp.roundTrips).map(([operation, n]) => [operation, n / calls])),
  };
}
