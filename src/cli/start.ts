// `npm start`: the local main job on the embedded default store. Starts DynamoDB Local with a
// persistent data directory (holding the data dir's lock, so the token CLI never starts a second
// JVM on it), creates the table if it is missing, announces its endpoint in `.data/endpoint` for
// the token CLI, and serves MCP and the API on 127.0.0.1. Ctrl-C stops the server, then
// DynamoDB Local by its PID.
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { buildAnnouncer } from '../announcer-from-config.ts';
import { startCapabilityRescan } from '../app/capability/rescan/schedule.ts';
import { recordSearchChanges } from '../app/search/record-search-changes.ts';
import { startSearchSnapshots } from '../app/search/snapshot-schedule.ts';
import { readSignInConfig } from '../auth/sign-in-config.ts';
import { readConfig } from '../config.ts';
import { buildContext } from '../context.ts';
import { httpAppFromConfig } from '../http/app-from-config.ts';
import { stdoutLog } from '../log-sink.ts';
import { startCounterLog } from '../metrics/counter-log.ts';
import { compactHeap } from '../offload/compact-heap.ts';
import {
  lowerPlatformThreadsPriority,
  lowerThreadPoolPriority,
  PLATFORM_THREAD_NICENESS,
  THREAD_POOL_NICENESS,
} from '../offload/thread-priority.ts';
import { type SweepSchedule, scheduleAnnounceSweeps } from '../outbox/announce/sweeper.ts';
import { startNotificationDispatch } from '../outbox/dispatch-soon.ts';
import { readSettings } from '../settings/read-settings.ts';
import { settingsHelp } from '../settings/settings-help.ts';
import { ensureTable } from '../store/bootstrap.ts';
import { type DataDirLock, lockFilePath, removeEndpointFile, tryLockDataDir, writeEndpointFile } from './local-store.ts';
import { type StreamConsumer, startLocalStream } from './local-stream.ts';
import { searchIndexInThread } from './search-index-in-thread.ts';
import { runSnapshotJobWhereNeeded } from './snapshot-job-in-process.ts';

/** Event lines: escaped, one physical line each (src/log-sink.ts). */
const log = stdoutLog;
/** The help text and the banner: lorebook's own multi-line text, written as it is. */
const print = (text: string): void => void process.stdout.write(`${text}\n`);

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  print(`usage: npm start

Starts lorebook locally: DynamoDB Local (the embedded store, needs Java 17+) and the server on
127.0.0.1 with MCP at /mcp and the HTTP API at /v1. Stop with Ctrl-C.
Announcing on Bluesky needs all three BLUESKY_* account settings (unset all three: off); the
feed generator at /xrpc: npm run bsky:publish-feed -- --help and docs/pages.md; sign-in: docs/auth.md.

${settingsHelp('start')}`);
  process.exit(0);
}

const config = readConfig();
// First, before any worker thread starts (a worker's thread carries the same name and would be lowered too).
const loweredPlatform = lowerPlatformThreadsPriority();
if (loweredPlatform > 0)
  log(
    `lorebook: V8's ${loweredPlatform} platform threads (garbage collection, background compiles) run at niceness ${PLATFORM_THREAD_NICENESS}`,
  );
const LOCK_WAIT_MS = 60_000;
/** The sweeper's every-minute schedule (infra), so a local table is re-scanned and its search snapshotted as the cloud's is. */
const SWEEPER_INTERVAL_MS = 60_000;

/** The data dir's lock: a token command running its own DynamoDB Local holds it for a few seconds. */
async function lockDataDir(): Promise<DataDirLock> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    const lock = tryLockDataDir(config.dataDir);
    if (lock !== undefined) return lock;
    if (Date.now() >= deadline) {
      throw new Error(
        `Another lorebook process holds ${lockFilePath(config.dataDir)}. Stop it (or delete the lock file if none is running).`,
      );
    }
    if (!told) log(`lorebook: waiting for another process using ${config.dataDir} to finish`);
    told = true;
    await new Promise((done) => setTimeout(done, 200));
  }
}

let lock: DataDirLock | undefined;
let ddb: DynamoDbLocal | undefined;
let endpoint = config.ddbEndpoint;
if (endpoint === undefined) {
  lock = await lockDataDir();
  log(`lorebook: starting DynamoDB Local with data in ${config.dataDir}`);
  try {
    ddb = await startDynamoDbLocal({ dataDir: config.dataDir, log });
  } catch (error) {
    lock.release();
    throw error;
  }
  endpoint = ddb.endpoint;
}
const announcer = buildAnnouncer(config, log);
const ctx = buildContext(config, endpoint, announcer);
// The counters the Lambda functions write as EMF, here one log line per interval when something moved.
const metrics = startCounterLog({ intervalMs: config.metricsLogIntervalMs, log });
ctx.metrics = metrics;
await ensureTable(ctx.store.client, config.tableName);
// Image re-encodes hold a pool thread for a second or more: they yield the cores to the serving thread.
const loweredPool = await lowerThreadPoolPriority();
if (loweredPool > 0)
  log(`lorebook: libuv's ${loweredPool} pool threads (image re-encodes, file reads) run at niceness ${THREAD_POOL_NICENESS}`);
if (ddb !== undefined) writeEndpointFile(config.dataDir, ddb.endpoint);
log(`lorebook: table "${config.tableName}" ready at ${endpoint}${ddb === undefined ? '' : ` (DynamoDB Local pid ${ddb.pid})`}`);

const sweeps: SweepSchedule | undefined =
  announcer === undefined || config.bluesky === undefined
    ? undefined
    : scheduleAnnounceSweeps(ctx, announcer, config.bluesky.sweepIntervalMs);

// The dispatcher runs after each correction's commit, and as a backstop (it is not a stream consumer here).
const notifying = startNotificationDispatch(ctx, { intervalMs: config.dispatchIntervalMs, log });
ctx.dispatchSoon = notifying.soon;

// What the sweeper Lambda does every minute: stories scanned by an older scanner version are re-scanned.
const rescanning = startCapabilityRescan(ctx, { intervalMs: SWEEPER_INTERVAL_MS, log });

// What the sweeper Lambda does every minute: the search index snapshot moves forward (docs/search.md),
// each run that loads the index in a process of its own, off the event loop that serves requests.
const snapshotting =
  ctx.searchSnapshots === undefined
    ? undefined
    : startSearchSnapshots(() => runSnapshotJobWhereNeeded(ctx, config, endpoint), { intervalMs: SWEEPER_INTERVAL_MS, log });

// What reads DynamoDB Local's table stream, as the cloud's stream Lambda does: each consumer gets
// every batch (src/cli/local-stream.ts). With none listed no poller runs.
const streamConsumers: readonly StreamConsumer[] = [
  // The search change log (docs/design.md#search), as the stream function writes it in the cloud.
  { name: 'the search change log', onRecords: async (records) => void (await recordSearchChanges(ctx, records)) },
];
const streaming = startLocalStream(ctx.store, streamConsumers, { endpoint, intervalMs: config.streamPollIntervalMs, log });

const { baseUrl, port } = config.http;
const app = httpAppFromConfig({
  ctx,
  config,
  signIn: readSignInConfig(readSettings(), baseUrl),
  log,
  // The index in a thread of its own: loading, ranking and collecting it never hold this event loop.
  searchIndex: () => searchIndexInThread(config, endpoint, { log }),
});
// Last before the port opens: start-up leaves the serving thread's heap about twice its live size
// (88 MB committed for 42 MB live on an empty table), and V8's memory reducer compacted it ~30 s
// into serving in one collection that held the event loop (38 ms on a quiet machine, 76–87 ms beside
// an index loading at 100k stories: BENCHMARKS.md §12). Here nobody waits for it.
const compaction = compactHeap();
if (compaction !== undefined) {
  const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
  log(
    `lorebook: start-up heap compacted before listening, ${mb(compaction.beforeBytes)} -> ${mb(compaction.afterBytes)} MB in ${compaction.ms.toFixed(0)} ms`,
  );
}
const server: ServerType = await new Promise<ServerType>((resolve, reject) => {
  const listening = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => {
    log(`lorebook: listening on http://127.0.0.1:${info.port}`);
    resolve(listening);
  });
  listening.once('error', reject);
}).catch(async (error: unknown) => {
  await stopStore();
  const reason =
    (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} is in use (set PORT to another one)` : String(error);
  log(`lorebook: could not start the server: ${reason}`);
  return process.exit(1);
});

print(`
  MCP server   ${baseUrl}/mcp
  HTTP API     ${baseUrl}/v1   (OpenAPI: ${baseUrl}/v1/openapi.json)
  Web pages    ${baseUrl}/     (Atom: ${baseUrl}/feed.atom)

  Get a token (in another terminal):
    npm run token -- create --handle you
  Connect Claude Code:
    claude mcp add --transport http lorebook ${baseUrl}/mcp --header "Authorization: Bearer <token>"
  Searching and reading need no token. Docs: docs/api.md. Ctrl-C stops.
`);

async function stopStore(): Promise<void> {
  // Announcement attempts in flight finish first (each is bounded); one cut short is swept later.
  await sweeps?.stop();
  await ctx.announcing?.idle();
  await notifying.stop();
  await rescanning.stop();
  await streaming?.stop();
  await snapshotting?.stop();
  metrics.stop();
  ctx.store.client.destroy();
  if (ddb !== undefined) {
    removeEndpointFile(config.dataDir);
    await ddb.stop();
  }
  lock?.release();
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`lorebook: ${signal} received, stopping the server${ddb === undefined ? '' : ` and DynamoDB Local (pid ${ddb.pid})`}`);
  // Stop taking requests and let the ones in flight finish; idle keep-alive sockets are closed.
  await new Promise<void>((done) => {
    server.close(() => done());
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
  await stopStore();
  log('lorebook: stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// The endpoint file names a store that is about to go away: never leave it behind.
process.on('exit', () => {
  if (ddb !== undefined && !stopping) removeEndpointFile(config.dataDir);
});
