// Fairness under attack (BENCHMARKS.md §11, docs/design.md#fair-cpu): a real `npm start` serves a
// victim making ordinary calls one after another (a tiny publish, its get_story, the first render
// of its page) while strangers attack from other loopback addresses and another account
// (fairness-attacks.ts): 12 anonymous heavy capability scans in flight (the issue's text, and the
// costliest one the cost limits accept), 40 oversized bodies with a bogus token, 6 heavy images in
// flight. The attackers run in a process of their own (fairness-attacker.ts), as they would on
// machines of their own: their client work never delays the victim's timing. The victim's p50/p99
// under each attack (and all at once) is reported as a ratio of the same calls with no attacker,
// measured just before it in the same run, and the server's peak RSS as a ratio of its idle RSS.
// The server runs with its default settings (rate limits included). The victim is a fresh account and reads from a fresh
// address each phase, so its own calls never meet its per-minute limits. Bounded: a phase stops
// starting victim rounds after PHASE_MS, and a call not answered within CALL_TIMEOUT_MS is cut
// (and counted as refused).
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { dropTable, ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { storyTitled } from '../helpers/stories.ts';
import { startAttackerProcess } from './fairness-attacker-process.ts';
import { ATTACKS, type Attack } from './fairness-attacks.ts';
import { type Answer, send } from './fairness-calls.ts';
import { mib, percentile } from './stats.ts';

export { ATTACKS, type Attack };

/** What `all` runs at once: the costliest scans the limits accept, the bodies and the images. */
const ALL_AT_ONCE: readonly Attack[] = ['costly-scans', 'bodies', 'images'];
export type Phase = 'alone' | Attack | 'all';
export type CallKind = 'publish' | 'get_story' | 'page';
export const CALL_KINDS: readonly CallKind[] = ['publish', 'get_story', 'page'];

export interface PhaseRun {
  phase: Phase;
  /** Milliseconds per call kind, one per victim round. */
  latencies: Record<CallKind, number[]>;
  /** The victim's calls that did not answer 2xx (a refusal the victim did not earn). */
  victimFailures: number;
  /** Attack calls answered, by status. */
  attackStatuses: Record<string, number>;
  peakRssBytes: number;
  /**
   * The server's RSS as the phase starts, before its attack: idle since the phase before ended. A
   * run's server holds more as its stories pile up and its heaps grow (BENCHMARKS.md §11), so an
   * attack's cost is its peak against this, as well as against the idle RSS at the run's start.
   */
  idleBeforeBytes: number;
  /**
   * The highest RSS of the server's own job processes over the phase (the search snapshot job's,
   * forked for a run that loads the index: src/cli/job-process.ts), summed when more than one ran
   * at once; 0 when none ran. Not in the server's RSS: the memory a job process takes is the
   * machine's while it runs, and all of it is given back when it exits.
   */
  jobPeakRssBytes: number;
  /** The attackers' client CPU over the phase, in ms (their own process). */
  attackerCpuMs: number;
  /** The longest stall of the bench's own event loop over the phase, where the victim's calls are timed. */
  victimClientStallMs: number;
  /** The server's serving thread over the victim's rounds, per second: ms on a core, and ms runnable but waiting for one. */
  servingThread: { ranMsPerSecond: number; waitedMsPerSecond: number };
}

export interface FairnessRun {
  workers: number;
  idleRssBytes: number;
  phases: PhaseRun[];
}

export interface FairnessOptions {
  endpoint: string;
  /** Victim rounds per phase (each: publish, get_story, page). */
  rounds: number;
  /** Offload workers for the server (LOREBOOK_OFFLOAD_WORKERS); undefined = the default (one per core, at least two). */
  workers?: number;
  /** The CPUs the server may run on (TASKSET's `-c`, Linux); undefined = every one. */
  cpus?: string;
  /** Which phases to run besides `alone`. */
  phases: readonly Phase[];
  log(line: string): void;
}

const PHASE_MS = 45_000;
/** util-linux's, on every Debian: where it is missing (not Linux) the bench runs no phase held to some cores. */
export const TASKSET = '/usr/bin/taskset';
/** The victim's token calls; its anonymous calls come from an address of their own each phase (victimAddress). */
const VICTIM = '127.0.0.1';
/** Rounds before the victim takes a fresh account and reading address: 25 rounds read 50 times, under the anonymous 60 a minute. */
const ROUNDS_PER_VICTIM = 25;

/**
 * The server's process: the node process `npm start` runs, the largest in its process group. Found
 * once, after the warm-up: listing every process takes 2–10 ms of the bench's event loop, where the
 * victim's calls are timed, so the sampler reads only this one.
 */
function serverPid(groupLeader: number): number {
  let largest = { pid: groupLeader, rss: 0 };
  for (const pid of readPids()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== groupLeader) continue;
      const rss = rssOf(pid);
      if (rss > largest.rss) largest = { pid, rss };
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return largest.pid;
}

function rssOf(pid: number): number {
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return rss === null ? 0 : Number(rss[1]) * 1024;
}

/**
 * The summed RSS of the server's child processes that run node: its job processes (not DynamoDB
 * Local's java, when the server started one). `children` lists the processes the serving thread
 * started (Linux 3.5+); 0 where it is missing.
 */
function jobProcessesRss(server: number): number {
  let total = 0;
  try {
    for (const child of readFileSync(`/proc/${server}/task/${server}/children`, 'utf8').trim().split(' ').filter(Boolean)) {
      try {
        if (readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'node') total += rssOf(Number(child));
      } catch {
        // The job ended between the listing and the read.
      }
    }
  } catch {
    return 0;
  }
  return total;
}

/**
 * The serving thread's CPU time and its time runnable but waiting for a core, in ms
 * (`/proc/<pid>/task/<pid>/schedstat`, Linux): what the victim's slow calls spent, beside what
 * the server did. Zero elsewhere.
 */
function servingThreadTimes(pid: number): { ranMs: number; waitedMs: number } {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { ranMs: (ran ?? 0) / 1e6, waitedMs: (waited ?? 0) / 1e6 };
  } catch {
    return { ranMs: 0, waitedMs: 0 };
  }
}

function readPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export async function runFairnessBench(options: FairnessOptions): Promise<FairnessRun> {
  const client = createStoreClient({ endpoint: options.endpoint });
  const table = `bench-fairness-${Date.now()}`;
  const ctx: AppContext = {
    store: { client, tableName: table, now: Date.now },
    config: DEFAULT_APP_CONFIG,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
  await ensureTable(client, table);
  const victimToken = async (phase: number): Promise<string> =>
    (await createToken(ctx, { handle: `fair-victim-${phase}`, expiresInSeconds: 3600 })).token;
  /** A fresh account per phase and every ROUNDS_PER_VICTIM rounds, as the reader's address: the victim's own calls must not meet its per-minute limits. */
  let victim = await victimToken(0);
  /** A fresh uploader each phase: one that spent its minute of CPU in the phase before would be refused before re-encoding. */
  const imageToken = async (phase: number): Promise<string> =>
    (await createToken(ctx, { handle: `fair-images-${phase}`, expiresInSeconds: 3600 })).token;
  let uploader = await imageToken(0);
  const attackers = await startAttackerProcess();
  const server: NpmStart = await startNpmStart({
    endpoint: options.endpoint,
    table,
    ...(options.cpus === undefined ? {} : { under: [TASKSET, '-c', options.cpus] }),
    env: {
      // The helper raises it for tests; the bench runs the default.
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '60',
      ...(options.workers === undefined ? {} : { LOREBOOK_OFFLOAD_WORKERS: String(options.workers) }),
    },
  });
  const groupLeader = server.processGroup;
  /** The pid whose RSS is sampled: the group's leader until the warm-up has started the server (serverPid). */
  let serverProcess = groupLeader;
  const base = server.baseUrl;
  let round = 0;
  /** A fresh loopback address per phase for the victim's anonymous calls, so its own calls never meet the anonymous limit. */
  let readerAddress = '127.0.1.1';

  const victimRound = async (latencies: Record<CallKind, number[]>): Promise<number> => {
    round += 1;
    let failures = 0;
    const timed = async (kind: CallKind, call: () => Promise<Answer>): Promise<Answer> => {
      const started = performance.now();
      const answer = await call();
      latencies[kind].push(performance.now() - started);
      if (answer.status < 200 || answer.status >= 300) failures += 1;
      return answer;
    };
    const published = await timed('publish', () =>
      send(`${base}/v1/stories`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${victim}`, 'Content-Type': 'text/markdown' },
        body: storyTitled(`Fairness victim round ${round} ${Date.now()}`),
        from: VICTIM,
      }),
    );
    const slug = published.status >= 200 && published.status < 300 ? (JSON.parse(published.body) as { slug: string }).slug : undefined;
    if (slug === undefined) return failures + 2;
    await timed('get_story', () => send(`${base}/v1/stories/${slug}`, { method: 'GET', from: readerAddress }));
    await timed('page', () => send(`${base}/s/${slug}`, { method: 'GET', from: readerAddress }));
    return failures;
  };

  let phases = 0;
  const runPhase = async (phase: Phase): Promise<PhaseRun> => {
    phases += 1;
    readerAddress = `127.0.1.${phases + 1}`;
    victim = await victimToken(phases);
    uploader = await imageToken(phases);
    const latencies: Record<CallKind, number[]> = { publish: [], get_story: [], page: [] };
    const attacks = phase === 'alone' ? [] : phase === 'all' ? ALL_AT_ONCE : [phase];
    const idleBeforeBytes = rssOf(serverProcess);
    if (attacks.length > 0) await attackers.start(attacks, { base, uploader });
    let peakRssBytes = rssOf(serverProcess);
    let jobPeakRssBytes = 0;
    const sampler = setInterval(() => {
      peakRssBytes = Math.max(peakRssBytes, rssOf(serverProcess));
      jobPeakRssBytes = Math.max(jobPeakRssBytes, jobProcessesRss(serverProcess));
    }, 200);
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    let victimFailures = 0;
    let attackStatuses: Record<string, number> = {};
    let attackerCpuMs = 0;
    let servingBefore = { ranMs: 0, waitedMs: 0, at: performance.now() };
    let servingAfter = servingBefore;
    try {
      // The attack reaches full strength before the victim's first call.
      if (attacks.length > 0) await new Promise((resolve) => setTimeout(resolve, 2_000));
      clientLoop.enable();
      servingBefore = { ...servingThreadTimes(serverProcess), at: performance.now() };
      const until = performance.now() + PHASE_MS;
      for (let index = 0; index < options.rounds && performance.now() < until; index += 1) {
        if (index > 0 && index % ROUNDS_PER_VICTIM === 0) {
          readerAddress = `127.0.${1 + index / ROUNDS_PER_VICTIM}.${phases + 1}`;
          victim = await victimToken(phases * 1000 + index);
        }
        victimFailures += await victimRound(latencies);
      }
    } finally {
      servingAfter = { ...servingThreadTimes(serverProcess), at: performance.now() };
      clientLoop.disable();
      clearInterval(sampler);
      if (attacks.length > 0) ({ statuses: attackStatuses, cpuMs: attackerCpuMs } = await attackers.stop());
    }
    const victimClientStallMs = clientLoop.max / 1e6;
    const seconds = Math.max(1e-3, (servingAfter.at - servingBefore.at) / 1000);
    const servingThread = {
      ranMsPerSecond: (servingAfter.ranMs - servingBefore.ranMs) / seconds,
      waitedMsPerSecond: (servingAfter.waitedMs - servingBefore.waitedMs) / seconds,
    };
    const p = (kind: CallKind, at: number): string => percentile(latencies[kind], at).toFixed(0);
    options.log(
      `  ${phase}: ${CALL_KINDS.map((kind) => `${kind} p50 ${p(kind, 50)} ms p99 ${p(kind, 99)} ms`).join('; ')}; victim failures ${victimFailures}; attack answers ${JSON.stringify(attackStatuses)}; peak RSS ${mib(peakRssBytes)} (idle before ${mib(idleBeforeBytes)}; job processes ${mib(jobPeakRssBytes)}); attackers' client CPU ${attackerCpuMs.toFixed(0)} ms; victim client's longest stall ${victimClientStallMs.toFixed(0)} ms; serving thread ${servingThread.ranMsPerSecond.toFixed(0)} ms a second on a core, ${servingThread.waitedMsPerSecond.toFixed(0)} waiting for one`,
    );
    return {
      phase,
      latencies,
      victimFailures,
      attackStatuses,
      peakRssBytes,
      idleBeforeBytes,
      jobPeakRssBytes,
      attackerCpuMs,
      victimClientStallMs,
      servingThread,
    };
  };

  try {
    // Warm-up: the parser, renderer and secret scanner load in the workers on their first tasks.
    await victimRound({ publish: [], get_story: [], page: [] });
    await victimRound({ publish: [], get_story: [], page: [] });
    serverProcess = serverPid(groupLeader);
    const idleRssBytes = rssOf(serverProcess);
    options.log(`  server idle RSS ${mib(idleRssBytes)} (workers: ${options.workers ?? 'one per core'})`);
    // Each attack beside a reference measured just before it: the victim's calls alone slow as its
    // stories pile up (publish p50 58 -> 74 ms over 1,000 of them), so one reference at the start
    // would charge that to the last attacks.
    const phases: PhaseRun[] = [];
    for (const phase of options.phases) phases.push(await runPhase('alone'), await runPhase(phase));
    return { workers: options.workers ?? 0, idleRssBytes, phases };
  } finally {
    attackers.close();
    await server.stop();
    // Its stories leave the DynamoDB Local it may share with other runs.
    await dropTable(client, table);
    client.destroy();
  }
}
