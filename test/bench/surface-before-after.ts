// `npm run bench:surface` (and section (b) of `npm run bench`): MCP report_reproduction end to end
// vs a bare TransactWriteItems, for the server as it is and as it was before its admission path
// was cut to one snapshot read and one transaction on the critical path (issue 18), both servers
// running side by side on one DynamoDB Local in one run, each MCP figure against a bare
// transaction measured back to back with it. Prints a markdown table.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { type Agent, type AgentAccount, connectAgents } from './agents.ts';
import { unpackBaseline } from './baseline-tree.ts';
import { type LorebookProcess, startLorebookProcess } from './lorebook-process.ts';
import { mmm, ms, ratio, spread } from './stats.ts';
import { runSurfaceOnce, type SurfaceRun } from './surface-overhead.ts';

/** main before the remembered tokens and the count beside the call. */
export const BASELINE_COMMIT = '037937610665db24f0226f169cf458146412a861';

export type Variant = 'before' | 'after';
export type BeforeAfter = Record<Variant, SurfaceRun[][]>;

export async function runBeforeAfter(
  ctx: AppContext,
  endpoint: string,
  accounts: readonly AgentAccount[],
  options: { runs: number; calls: Record<number, number>; log(line: string): void; more?(run: number): boolean },
): Promise<BeforeAfter> {
  const baseline = unpackBaseline(BASELINE_COMMIT);
  const servers: Partial<Record<Variant, { server: LorebookProcess; agents: Agent[] }>> = {};
  try {
    for (const [variant, script] of [
      ['before', baseline.server],
      ['after', undefined],
    ] as const) {
      const server = await startLorebookProcess(endpoint, ctx.store.tableName, script);
      servers[variant] = { server, agents: await connectAgents(server.baseUrl, accounts) };
      await runSurfaceOnce(ctx, server, servers[variant].agents, 16, 128); // warm-up, not counted
    }
    const results: BeforeAfter = { before: [], after: [] };
    for (let run = 1; run <= options.runs && (options.more?.(run) ?? true); run += 1) {
      // Alternate which code goes first, so neither always meets a warmer machine.
      const order: Variant[] = run % 2 === 1 ? ['before', 'after'] : ['after', 'before'];
      const byVariant: Record<Variant, SurfaceRun[]> = { before: [], after: [] };
      for (const [concurrency, calls] of Object.entries(options.calls)) {
        for (const variant of order) {
          const { server, agents } = servers[variant] as { server: LorebookProcess; agents: Agent[] };
          const result = await runSurfaceOnce(ctx, server, agents, Number(concurrency), calls);
          byVariant[variant].push(result);
          options.log(
            `  run ${run}/${options.runs}, ${variant}, concurrency ${concurrency}: MCP p50 ${ms(result.mcp.p50)} ms vs bare ${ms(result.bare.p50)} ms (${ratio(result.mcp.p50 / result.bare.p50)}), read then write ${ms(result.limit.p50)} ms (${ratio(result.limit.p50 / result.bare.p50)}); ${callsPerToolCall(result)}`,
          );
        }
      }
      results.before.push(byVariant.before);
      results.after.push(byVariant.after);
    }
    return results;
  } finally {
    for (const entry of Object.values(servers)) {
      await Promise.all(entry.agents.map((agent) => agent.close()));
      await entry.server.stop();
    }
    baseline.remove();
  }
}

const totalCalls = (run: SurfaceRun): number => Object.values(run.serverCalls).reduce((sum, n) => sum + n, 0);

function callsPerToolCall(run: SurfaceRun): string {
  const parts = Object.entries(run.serverCalls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, n]) => `${Number(n.toFixed(2))} ${operation}`);
  return `**${Number(totalCalls(run).toFixed(2))}**: ${parts.join(' + ')}`;
}

/** The runs of one variant at one concurrency. */
export function runsAt(runs: readonly SurfaceRun[][], concurrency: number): SurfaceRun[] {
  return runs.map((run) => run.find((r) => r.concurrency === concurrency)).filter((r): r is SurfaceRun => r !== undefined);
}

/** The table: per concurrency, before and after, min / **median** / max over the runs. */
export function beforeAfterTable(results: BeforeAfter, concurrencies: readonly number[]): string[] {
  const lines = [
    '| concurrency | code | MCP p50 ms | bare p50 ms | p50 ratio MCP / bare | p99 ratio MCP / bare | p50 ratio MCP / limit (read then write) | server DynamoDB calls per tool call | by operation, in the median run |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const concurrency of concurrencies) {
    for (const variant of ['before', 'after'] as const) {
      const runs = runsAt(results[variant], concurrency);
      const median = [...runs].sort((a, b) => totalCalls(a) - totalCalls(b))[Math.floor(runs.length / 2)];
      if (median === undefined) continue;
      const s = (pick: (r: SurfaceRun) => number) => spread(runs.map(pick));
      lines.push(
        `| ${concurrency} | ${variant === 'before' ? `before (\`${BASELINE_COMMIT.slice(0, 7)}\`)` : 'after'} | ${mmm(
          s((r) => r.mcp.p50),
          ms,
        )} | ${mmm(
          s((r) => r.bare.p50),
          ms,
        )} | ${mmm(
          s((r) => r.mcp.p50 / r.bare.p50),
          ratio,
        )} | ${mmm(
          s((r) => r.mcp.p99 / r.bare.p99),
          ratio,
        )} | ${mmm(
          s((r) => r.mcp.p50 / r.limit.p50),
          ratio,
        )} | ${mmm(s(totalCalls), (n) => String(Number(n.toFixed(2))))} | ${callsPerToolCall(median)} |`,
      );
    }
  }
  return lines;
}
