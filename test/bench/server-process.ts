// The lorebook server as its own process for the benchmark: the hono app (MCP + /v1) served by
// @hono/node-server on 127.0.0.1 over the bench's DynamoDB Local, as `npm start` serves it, so
// its memory and its DynamoDB calls are its own. Started with --expose-gc by lorebook-process.ts.
// IPC: { type: 'stats', gc?: boolean } -> { type: 'stats', rss, heapUsed, roundTrips, loopDelayMaxMs }
//      (loopDelayMaxMs: the longest the event loop was held since the last stats)
//      { type: 'reset' } -> the round-trip counts start again from zero.
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../src/app/context/verified-tokens.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';

export interface ServerStats {
  type: 'stats';
  rss: number;
  heapUsed: number;
  roundTrips: Record<string, number>;
  loopDelayMaxMs: number;
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

const endpoint = process.env.BENCH_DDB_ENDPOINT;
const tableName = process.env.BENCH_TABLE;
if (endpoint === undefined || tableName === undefined) throw new Error('BENCH_DDB_ENDPOINT and BENCH_TABLE are required');

const client = createStoreClient({ endpoint });
const roundTrips = countRoundTrips(client);
const ctx: AppContext = {
  store: { client, tableName, now: Date.now },
  // The benchmark measures the layers, not the rate limit refusing it: a budget no run reaches
  // (the rate window is still counted on every call, as in production).
  config: { ...DEFAULT_APP_CONFIG, rateLimitPerMinute: 1_000_000_000, anonymousRateLimitPerMinute: 1_000_000_000 },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  // As every server process has (src/context.ts).
  verifiedTokens: new VerifiedTokens(),
};

let handler: ((request: Request) => Response | Promise<Response>) | undefined;
const server = serve(
  { fetch: (request) => (handler as (request: Request) => Response | Promise<Response>)(request), port: 0, hostname: '127.0.0.1' },
  (info: AddressInfo) => {
    const baseUrl = `http://127.0.0.1:${info.port}`;
    const app = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl, allowedOrigins: [] });
    handler = (request) => app.fetch(request);
    process.send?.({ type: 'listening', baseUrl });
  },
);

process.on('message', (message: { type: string; gc?: boolean }) => {
  if (message.type === 'reset') {
    roundTrips.reset();
    process.send?.({ type: 'reset' });
  } else if (message.type === 'stats') {
    if (message.gc === true) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const stats: ServerStats = {
      type: 'stats',
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      roundTrips: roundTrips.snapshot(),
      loopDelayMaxMs: loopDelay.max / 1e6,
    };
    loopDelay.reset();
    process.send?.(stats);
  }
});
process.on('disconnect', () => {
  server.close();
  client.destroy();
  process.exit(0);
});
