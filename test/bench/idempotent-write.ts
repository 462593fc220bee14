// (a) The same logical write made safe to repeat, by lorebook's apply-once and by Powertools'
// makeIdempotent, on one DynamoDB Local: DynamoDB calls per first call and per replay, latency,
// and what 16 parallel duplicates of one request do.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AppContext, Caller } from '../../src/app/context/app-context.ts';
import { countRoundTrips, type RoundTripCounter } from '../helpers/round-trips.ts';
import { counterKey, type LogicalWrite, newWrite } from './logical-write.ts';
import { lorebookCreateAndCount } from './lorebook-write.ts';
import type { PowertoolsWrite } from './powertools-write.ts';
import { percentile } from './stats.ts';

export const BENCH_CALLER: Caller = { account: 'acct-bench', handle: 'bench.test' };

export interface SideRun {
  firstP50: number;
  firstP99: number;
  replayP50: number;
  replayP99: number;
  /** DynamoDB calls per call, by operation (averaged over the run). */
  firstCalls: Record<string, number>;
  replayCalls: Record<string, number>;
}

export interface DuplicateTrial {
  /** Business writes that reached DynamoDB (the counter's increase). */
  applied: number;
  /** Powertools: times the function body started. lorebook: TransactWriteItems sent. */
  ran: number;
  answered: number;
  /** Refusals by error name. */
  refused: Record<string, number>;
}

export interface IdempotencyRun {
  lorebook: SideRun;
  powertools: SideRun;
  duplicates: { lorebook: DuplicateTrial[]; powertools: DuplicateTrial[] };
}

export interface IdempotencyBench {
  ctx: AppContext;
  powertools: PowertoolsWrite;
}

/** Creates both counters (their bumps require the item, as every lorebook update does). */
export async function createCounters(ctx: AppContext): Promise<void> {
  for (const system of ['lorebook', 'powertools'] as const) {
    await ctx.store.client.send(new PutCommand({ TableName: ctx.store.tableName, Item: { ...counterKey(system), n: 0 } }));
  }
}

export async function readCounter(ctx: AppContext, system: 'lorebook' | 'powertools'): Promise<number> {
  const output = await ctx.store.client.send(
    new GetCommand({ TableName: ctx.store.tableName, Key: counterKey(system), ConsistentRead: true }),
  );
  return Number(output.Item?.n ?? 0);
}

export async function runIdempotencyOnce(
  bench: IdempotencyBench,
  options: { calls: number; duplicateTrials: number; parallel: number },
): Promise<IdempotencyRun> {
  const lorebookCounter = countRoundTrips(bench.ctx.store.client);
  const powertoolsCounter = countRoundTrips(bench.powertools.client);
  try {
    const sides = {
      lorebook: (input: LogicalWrite) => lorebookCreateAndCount(bench.ctx, BENCH_CALLER, input),
      powertools: (input: LogicalWrite) => bench.powertools.call(input),
    };
    const inputs = Array.from({ length: options.calls }, () => ({ lorebook: newWrite('lb'), powertools: newWrite('pt') }));
    const latency = {
      lorebook: { first: [] as number[], replay: [] as number[] },
      powertools: { first: [] as number[], replay: [] as number[] },
    };
    const calls = { lorebook: { first: {}, replay: {} }, powertools: { first: {}, replay: {} } } as Record<
      'lorebook' | 'powertools',
      { first: Record<string, number>; replay: Record<string, number> }
    >;

    for (const phase of ['first', 'replay'] as const) {
      lorebookCounter.reset();
      powertoolsCounter.reset();
      for (const [index, pair] of inputs.entries()) {
        // Alternate who goes first, so neither side always runs on a warmer connection.
        const order = index % 2 === 0 ? (['lorebook', 'powertools'] as const) : (['powertools', 'lorebook'] as const);
        for (const side of order) {
          const start = performance.now();
          await sides[side](pair[side]);
          latency[side][phase].push(performance.now() - start);
        }
      }
      calls.lorebook[phase] = perCall(lorebookCounter, options.calls);
      calls.powertools[phase] = perCall(powertoolsCounter, options.calls);
    }

    const duplicates = { lorebook: [] as DuplicateTrial[], powertools: [] as DuplicateTrial[] };
    for (let trial = 0; trial < options.duplicateTrials; trial += 1) {
      duplicates.lorebook.push(await parallelDuplicates(bench, 'lorebook', options.parallel, sides.lorebook, lorebookCounter));
      duplicates.powertools.push(await parallelDuplicates(bench, 'powertools', options.parallel, sides.powertools, powertoolsCounter));
    }

    const side = (name: 'lorebook' | 'powertools'): SideRun => ({
      firstP50: percentile(latency[name].first, 50),
      firstP99: percentile(latency[name].first, 99),
      replayP50: percentile(latency[name].replay, 50),
      replayP99: percentile(latency[name].replay, 99),
      firstCalls: calls[name].first,
      replayCalls: calls[name].replay,
    });
    return { lorebook: side('lorebook'), powertools: side('powertools'), duplicates };
  } finally {
    lorebookCounter.detach();
    powertoolsCounter.detach();
  }
}

async function parallelDuplicates(
  bench: IdempotencyBench,
  system: 'lorebook' | 'powertools',
  parallel: number,
  call: (input: LogicalWrite) => Promise<unknown>,
  counter: RoundTripCounter,
): Promise<DuplicateTrial> {
  const input = newWrite(`dup-${system}`);
  const before = await readCounter(bench.ctx, system);
  const runsBefore = bench.powertools.runs();
  counter.reset();
  const settled = await Promise.allSettled(Array.from({ length: parallel }, () => call(input)));
  const writes = counter.snapshot().TransactWriteItems ?? 0;
  const applied = (await readCounter(bench.ctx, system)) - before;
  const refused: Record<string, number> = {};
  for (const result of settled) {
    if (result.status === 'rejected') {
      const name = (result.reason as { name?: string }).name ?? 'Error';
      refused[name] = (refused[name] ?? 0) + 1;
    }
  }
  return {
    applied,
    // Powertools: function bodies started. lorebook: transactions sent; all but one are refused
    // whole by the op record's condition and answer the winner's outcome from ALL_OLD.
    ran: system === 'powertools' ? bench.powertools.runs() - runsBefore : writes,
    answered: settled.filter((result) => result.status === 'fulfilled').length,
    refused,
  };
}

function perCall(counter: RoundTripCounter, calls: number): Record<string, number> {
  return Object.fromEntries(Object.entries(counter.snapshot()).map(([operation, n]) => [operation, n / calls]));
}
