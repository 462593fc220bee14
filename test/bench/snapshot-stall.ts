// `npm run bench:snapshot-stall` (section 12 of `npm run bench`): the longest the server's event
// loop is held while the search snapshot job runs, under `npm start` itself, over two snapshot
// intervals (the job runs at start and every 60 s), at 10k and 100k stories; before (main's code
// before issue 26, unpacked from git: the job and the instance's load on the main thread) and
// after (this tree: the job in a process of its own, the load handed over in pieces), in the same run.
// The corpus is search-corpus.ts's, indexed here once per size and written as the snapshot the
// pointer names; a story published every 20 s gives each run a change to apply. After is watched
// twice: told to write every change (LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES=0, so each run loads
// and writes the snapshot, as before), and at the default, where those few changes are left to
// the instances and no run loads it. Also the instance's load alone, for each candidate way of
// loading (snapshot-stall-load.ts).
// Usage: node test/bench/snapshot-stall.ts [--sizes 10000,100000] [--write] [--skip-loads] [--skip-before]
//   --write: replace section 12 of BENCHMARKS.md with the result; --skip-loads: the servers only;
//   --skip-before: not the before server (at 100k it stalls for minutes).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { encodeSnapshot, snapshotName } from '../../src/app/search/search-snapshot-codec.ts';
import { createStoryIndex } from '../../src/app/search/story-index.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { writeSearchLog } from '../../src/store/search/search-log.ts';
import { moveSearchPointer } from '../../src/store/search/search-pointer.ts';
import { searchSnapshotsInDirectory } from '../../src/store/search/search-snapshots-dir.ts';
import { withoutLorebookSettings } from '../helpers/command-env.ts';
import { storyTitled } from '../helpers/stories.ts';
import { storyAt } from './search-corpus.ts';
import { type IdleRuns, measureIdleRuns } from './snapshot-idle-run.ts';
import { type LoadCandidate, measureLoadCandidates } from './snapshot-stall-load.ts';
import { STALL_HEADING } from './snapshot-stall-section.ts';
import { ratio } from './stats.ts';

/** main before issue 26: the snapshot job and the instance's load on the event loop. */
const BEFORE_COMMIT = 'dccfd644a2bf91235b1895ca5393266d8e8f2730';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('./snapshot-stall-probe.ts', import.meta.url));
const REPORT = join(ROOT, 'BENCHMARKS.md');
/** Job runs watched: at start, and after one and two intervals. */
const RUNS = 3;
const PUBLISH_EVERY_MS = 20_000;
const PING_EVERY_MS = 1000;
/** A server whose three runs have not ended by then is reported as it stands. */
const WINDOW_LIMIT_MS = 6 * 60_000;
/** Two snapshot intervals and a little: the window of a server whose runs write nothing, so log nothing. */
const QUIET_WINDOW_MS = 125_000;

const args = process.argv.slice(2);
const sizesArg = args[args.indexOf('--sizes') + 1];
const SIZES = args.includes('--sizes') && sizesArg !== undefined ? sizesArg.split(',').map(Number) : [10_000, 100_000];
const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);

interface ServerRun {
  /** The longest event-loop stall in the window, ms, and the job runs that wrote a snapshot in it. */
  stallMs: number;
  runs: number;
  /** The longest garbage-collection pause of the main thread's own heap in the second of the longest stall, ms. */
  stallGcMs: number;
  /** The longest stall less its second's longest collection pause of the main thread's heap: what the heap's own collections do not explain. */
  stallBesideGcMs: number;
  /** How long the main thread waited, runnable, for a core in the second of the longest stall, ms (0 off Linux). */
  stallWaitMs: number;
  /** The slowest of the searches sent once a second meanwhile, ms. */
  searchMaxMs: number;
  /** Searches whose connection the server dropped. */
  dropped: number;
  windowS: number;
  /** How the server ended on its own inside the window, if it did (a signal, or an exit code). */
  exited?: string;
}

interface SizeRun {
  stories: number;
  /** The bench process's own longest stall over 10 s of doing nothing: the machine's noise floor. */
  idleMs: number;
  buildS: number;
  snapshotMiB: number;
  loads: LoadCandidate[];
  /** A job run with nothing logged since the last snapshot, loading it (before) and counting the log (after). */
  idleRuns: IdleRuns;
  before: ServerRun | undefined;
  /** Every change written: each run loads and writes the snapshot. */
  after: ServerRun;
  /** At the default: the few changes are left to the instances' replay. */
  deferred: ServerRun;
}

const author = { account: 'acct-stall-bench', handle: 'stall-bench.test' };

/** One published story with a change-log entry of its own: the next job run has a change to write. */
async function change(ctx: AppContext, n: number): Promise<void> {
  const { slug } = await publishStory(ctx, author, { markdown: storyTitled(`Stall bench change ${n} ${Date.now()}`) });
  await writeSearchLog(ctx.store, [{ slug, eventId: `bench-${n}-${Date.now()}` }]);
}

async function seed(ctx: AppContext, directory: string, stories: number): Promise<{ buildS: number; data: Uint8Array }> {
  const started = performance.now();
  const index = createStoryIndex();
  for (let i = 0; i < stories; i += 1) {
    const story = storyAt(i);
    index.put({
      slug: story.id,
      title: story.title,
      summary: story.summary,
      tags: story.tags.split(' '),
      stack: [story.stack],
      markdown: story.body,
      type: 'success',
      published_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    });
    if (i % 20_000 === 19_999) log(`  indexed ${i + 1} of ${stories}`);
  }
  const watermark = Date.now();
  const data = await encodeSnapshot(index, watermark);
  const name = snapshotName(watermark, Math.random);
  // The directory per table, as src/context.ts names it.
  await searchSnapshotsInDirectory(join(directory, ctx.store.tableName)).put(name, data);
  await moveSearchPointer(ctx.store, undefined, { snapshot: name, watermark, written_at: watermark });
  return { buildS: (performance.now() - started) / 1000, data };
}

interface Watch {
  label: string;
  /** Settings beside the bench's own. */
  env?: Record<string, string>;
  /** Watch this long rather than until three runs have written a snapshot. */
  windowMs?: number;
}

async function watchServer(ctx: AppContext, tree: string, endpoint: string, directory: string, watch: Watch): Promise<ServerRun> {
  const { label } = watch;
  const scratch = mkdtempSync(join(tmpdir(), 'lorebook-stall-'));
  const stallFile = join(scratch, 'stalls');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  await change(ctx, 0);
  const child = spawn(process.execPath, ['--import', PROBE, join(tree, 'src/cli/start.ts')], {
    cwd: tree,
    env: {
      ...withoutLorebookSettings(),
      PORT: String(port),
      LOREBOOK_DDB_ENDPOINT: endpoint,
      LOREBOOK_TABLE: ctx.store.tableName,
      LOREBOOK_DATA_DIR: join(scratch, 'data'),
      LOREBOOK_IMAGE_DIR: join(scratch, 'images'),
      LOREBOOK_SEARCH_DIR: directory,
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '1000000',
      BENCH_STALL_FILE: stallFile,
      ...watch.env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const jobRuns = (): number => (output.match(/lorebook: search snapshot/g) ?? []).length;
  try {
    const ready = Date.now() + 120_000;
    while (!output.includes('Ctrl-C stops')) {
      if (child.exitCode !== null || Date.now() > ready) throw new Error(`${label}: npm start did not come up:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const from = Date.now();
    let searchMaxMs = 0;
    let dropped = 0;
    let published = from;
    let n = 1;
    const watching = (): boolean =>
      watch.windowMs === undefined ? jobRuns() < RUNS && Date.now() - from < WINDOW_LIMIT_MS : Date.now() - from < watch.windowMs;
    while (watching()) {
      const started = performance.now();
      // A rare word: the search itself costs well under a millisecond, so its time is the wait.
      // A stalled server can drop the connection (its keep-alive timer fires late): counted, not fatal.
      await fetch(`http://127.0.0.1:${port}/v1/stories?q=bodyprobe7x`)
        .then((response) => response.arrayBuffer())
        .catch(() => (dropped += 1));
      searchMaxMs = Math.max(searchMaxMs, performance.now() - started);
      if (Date.now() - published >= PUBLISH_EVERY_MS) {
        await change(ctx, n++);
        published = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
    }
    const to = Date.now();
    for (const line of output.split('\n')) if (line.includes('search')) log(`  ${label} server: ${line.slice(0, 300)}`);
    // Each line covers the second before its time.
    const stalls = existsSync(stallFile)
      ? readFileSync(stallFile, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split(' ').map(Number) as [number, number, number, number])
          // Only seconds that began once the server said it was ready: the one before holds the end of its start.
          .filter(([at]) => at - 1000 >= from && at <= to + 1000)
      : [];
    const exitedBy = child.signalCode ?? (child.exitCode === null ? undefined : `code ${child.exitCode}`);
    const run = {
      stallMs: Math.max(0, ...stalls.map(([, max]) => max)),
      stallGcMs: [...stalls].sort((a, b) => b[1] - a[1])[0]?.[2] ?? 0,
      stallWaitMs: [...stalls].sort((a, b) => b[1] - a[1])[0]?.[3] ?? 0,
      stallBesideGcMs: Math.max(0, ...stalls.map(([, max, gc]) => max - (gc || 0))),
      runs: jobRuns(),
      searchMaxMs,
      dropped,
      windowS: (to - from) / 1000,
      ...(exitedBy === undefined ? {} : { exited: exitedBy }),
    };
    const worst = [...stalls].sort((a, b) => b[1] - a[1]).slice(0, 3);
    // Steadier than the one longest second, which one busy moment of the machine decides.
    const overTwenty = stalls.filter(([, max]) => max > 20).length;
    const waitedMs = stalls.reduce((sum, [, , , wait]) => sum + (wait || 0), 0);
    log(
      `  ${label}: longest stall ${run.stallMs.toFixed(0)} ms (its second's longest GC pause ${run.stallGcMs.toFixed(0)} ms; the longest less its second's GC pause ${run.stallBesideGcMs.toFixed(0)} ms) over ${run.windowS.toFixed(0)} s, ${run.runs} job runs; slowest search ${run.searchMaxMs.toFixed(0)} ms; ${overTwenty} of ${stalls.length} seconds held over 20 ms, the serving thread waited ${waitedMs.toFixed(0)} ms for a core in all; the longest in the seconds ending at ${worst.map(([at, max, gc, wait]) => `${((at - from) / 1000).toFixed(0)} s (${max.toFixed(0)} ms, GC ${(gc || 0).toFixed(0)} ms, waited for a core ${(wait || 0).toFixed(0)} ms)`).join(', ')}${exitedBy === undefined ? '' : `; the server exited (${exitedBy})`}`,
    );
    return run;
  } finally {
    signalGroup(child.pid, 'SIGINT');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 60_000)),
    ]);
    if (!stopped) signalGroup(child.pid, 'SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Signals the server's process group, which may be gone already (a server that died on its own). */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function measureSize(endpoint: string, beforeTree: string, stories: number): Promise<SizeRun> {
  const tableName = `bench-stall-${stories}-${Date.now()}`;
  const ctx: AppContext = {
    store: { client: createStoreClient({ endpoint, requestTimeoutMs: 60_000 }), tableName, now: Date.now },
    config: { ...DEFAULT_APP_CONFIG, rateLimitPerMinute: 10_000_000, storiesPerDay: 1_000_000, newAccountStoriesPerDay: 1_000_000 },
    sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
    random: Math.random,
  };
  const directory = mkdtempSync(join(tmpdir(), 'lorebook-stall-search-'));
  try {
    await ensureTable(ctx.store.client, tableName);
    log(`${stories} stories: indexing the corpus and writing its snapshot`);
    const { buildS, data } = await seed(ctx, directory, stories);
    const idleMs = await idleStall();
    log(`  built in ${buildS.toFixed(0)} s; idle noise ${idleMs.toFixed(0)} ms; the instance's load, each candidate`);
    const loads = args.includes('--skip-loads') ? [] : await measureLoadCandidates(data);
    for (const load of loads) log(`  ${load.name}: stall ${load.stallMs.toFixed(0)} ms, wall ${load.wallMs.toFixed(0)} ms`);
    log(
      `  npm start before (${BEFORE_COMMIT.slice(0, 7)}) and after, ${RUNS} job runs each; after at the default, ${QUIET_WINDOW_MS / 1000} s`,
    );
    const before = args.includes('--skip-before')
      ? undefined
      : await watchServer(ctx, beforeTree, endpoint, directory, { label: 'before' });
    const after = await watchServer(ctx, ROOT, endpoint, directory, {
      label: 'after, every change written',
      env: { LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES: '0' },
    });
    const deferred = await watchServer(ctx, ROOT, endpoint, directory, { label: 'after, at the default', windowMs: QUIET_WINDOW_MS });
    // After the servers: a load in this process leaves a heap to collect that would compete with them for the cores.
    const idleRuns = await measureIdleRuns(ctx, data, (idle) => change(idle, 0));
    log(
      `  a job run with nothing logged: loading ${idleRuns.loads.wallMs.toFixed(0)} ms, counting ${idleRuns.counts.wallMs.toFixed(0)} ms`,
    );
    return { stories, idleMs, buildS, snapshotMiB: data.byteLength / 1024 / 1024, loads, idleRuns, before, after, deferred };
  } finally {
    ctx.store.client.destroy();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function idleStall(): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  delay.disable();
  return delay.max / 1e6;
}

function sectionLines(runs: SizeRun[]): string[] {
  const fixed = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
  return [
    STALL_HEADING,
    '',
    'Command: `npm run bench:snapshot-stall` (`test/bench/snapshot-stall.ts`), run by `npm run bench` in a child process. ' +
      '`npm start` itself (`node --import test/bench/snapshot-stall-probe.ts src/cli/start.ts`: `perf_hooks.monitorEventLoopDelay` in the server, ' +
      'its maximum read once a second) over two snapshot intervals: the job runs at start, after 60 s and after 120 s, the window starts with the first full second after the server said it was ready and ends when the third run ends (or after 6 min). ' +
      `Before is main at ${BEFORE_COMMIT.slice(0, 7)} (unpacked from git), after is this tree, one after the other on the same table and snapshot. ` +
      "The corpus is §7's (search-corpus.ts), indexed once and written as the snapshot the pointer names; a story is published every 20 s, so each run " +
      "has a change to apply; a search for a rare word (well under 1 ms of work) is sent once a second, and the first one loads the instance's own index. " +
      'After is watched twice: told to write every change (`LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES=0`: each run loads the snapshot, applies the change and writes the next, as before), ' +
      `and at the default, where a run with at most ${DEFAULT_APP_CONFIG.searchSnapshotAfterEntries} changes since the snapshot leaves them to the instances' replay and loads nothing (watched ${QUIET_WINDOW_MS / 1000} s: its runs write nothing, so log nothing).`,
    '',
    `| stories | snapshot gzip | idle process (noise floor) | before: longest stall | after, every change written: longest stall | after / before | its second's longest GC pause of the serving thread's heap | less that pause | in its second, the serving thread waited for a core | after, at the default: longest stall (waited for a core) | slowest search (before, every change written, at the default) | snapshots written (before, every change written, at the default) |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((run) => {
      const { before, after, deferred } = run;
      const search = (server: ServerRun | undefined): string =>
        server === undefined ? '—' : `${fixed(server.searchMaxMs)} ms (${server.dropped} dropped)`;
      const written = (server: ServerRun | undefined): string =>
        server === undefined ? '—' : `${server.runs}${server.exited === undefined ? '' : ` (exited: ${server.exited})`}`;
      return `| ${run.stories} | ${run.snapshotMiB.toFixed(1)} MiB | ${fixed(run.idleMs)} ms | ${before === undefined ? '—' : `${fixed(before.stallMs)} ms`} | **${fixed(after.stallMs)} ms** | ${before === undefined ? '—' : ratio(after.stallMs / before.stallMs)} | ${fixed(after.stallGcMs)} ms | ${fixed(after.stallBesideGcMs)} ms | ${fixed(after.stallWaitMs)} ms | **${fixed(deferred.stallMs)} ms** (${fixed(deferred.stallWaitMs)} ms) | ${search(before)}, ${search(after)}, ${search(deferred)} | ${written(before)}, ${written(after)}, ${written(deferred)} |`;
    }),
    '',
    "An instance's own load of the snapshot, each candidate measured alone in the bench process (the longest event-loop stall while it loads; its wall time):",
    '',
    '| stories | candidate | longest stall | vs inline | wall time |',
    '|---|---|---|---|---|',
    ...runs.flatMap((run) =>
      run.loads.map(
        (load) =>
          `| ${run.stories} | ${load.name} | ${fixed(load.stallMs)} ms | ${ratio(load.stallMs / (run.loads[0] as LoadCandidate).stallMs)} | ${fixed(load.wallMs)} ms |`,
      ),
    ),
    '',
    "A job run with nothing logged since the last snapshot, in the bench process on a table of its own (wall time; the process's CPU, all threads): before, every run loaded the snapshot to find that out; now it counts the log behind the pointer's watermark and loads nothing.",
    '',
    '| stories | before: loads the snapshot | after: counts the log | after / before (wall, CPU) |',
    '|---|---|---|---|',
    ...runs.map(
      ({ stories, idleRuns: { loads, counts } }) =>
        `| ${stories} | ${fixed(loads.wallMs)} ms, ${fixed(loads.cpuMs)} ms CPU (from the ${loads.from}) | **${fixed(counts.wallMs)} ms**, ${fixed(counts.cpuMs)} ms CPU (from the ${counts.from}) | ${ratio(counts.wallMs / loads.wallMs)}, ${ratio(counts.cpuMs / loads.cpuMs)} |`,
    ),
    '',
  ];
}

function writeSection(lines: string[]): void {
  const report = readFileSync(REPORT, 'utf8');
  const section = `${lines.join('\n')}\n`;
  const start = report.indexOf(`\n${STALL_HEADING}\n`);
  if (start < 0) {
    const next = report.search(/\n## Where lorebook beats/);
    writeFileSync(REPORT, next < 0 ? `${report}\n${section}` : `${report.slice(0, next + 1)}${section}\n${report.slice(next + 1)}`);
    return;
  }
  const rest = report.slice(start + 1);
  const end = rest.slice(STALL_HEADING.length).search(/\n## /);
  writeFileSync(REPORT, `${report.slice(0, start + 1)}${section}${end < 0 ? '' : rest.slice(STALL_HEADING.length + end + 1)}`);
}

/** The whole tree at the commit (start.ts reads lexicons and skills too), beside this tree's node_modules. */
function unpackBefore(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'lorebook-stall-before-'));
  execFileSync('tar', ['-x', '-C', dir], {
    input: execFileSync('git', ['-C', ROOT, 'archive', BEFORE_COMMIT], { maxBuffer: 1024 * 1024 * 1024 }),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const shared = process.env.LOREBOOK_TEST_DDB_ENDPOINT || undefined;
const ddb = shared === undefined ? await startDynamoDbLocal({ log: () => {} }) : undefined;
const baseline = unpackBefore();
try {
  const runs: SizeRun[] = [];
  for (const stories of SIZES) {
    runs.push(await measureSize(shared ?? (ddb?.endpoint as string), baseline.dir, stories));
    log(`so far:\n${sectionLines(runs).join('\n')}`);
  }
  const lines = sectionLines(runs);
  if (args.includes('--write')) writeSection(lines);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  baseline.remove();
  await ddb?.stop();
}
