// `npm run bench:sign-in`: what a Bluesky sign-in and the device flow cost, against the real test
// PDS and DynamoDB Local on this machine. The claim is the ratio: lorebook's own part of a sign-in
// (/auth/login + /auth/callback, which include their calls to the PDS) against the PDS's part (its
// page, sign-in and consent), measured in the same runs; plus DynamoDB round trips per sign-in.
// LOREBOOK_BENCH_SIGN_INS=n sets how many sign-ins (default 20).
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { decideDeviceAuthorization, pollDeviceAuthorization, startDeviceAuthorization } from '../../src/app/oauth-server/device-flow.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { startTestPds } from '../helpers/pds/test-pds.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';
import { authorizeWithBluesky, deliverCallback } from '../helpers/signin/sign-in-with-bluesky.ts';
import { ms, percentile, ratio } from './stats.ts';

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: npm run bench:sign-in\n\nSigns people in with Bluesky against a local PDS and DynamoDB Local and prints\nwhere the time goes. LOREBOOK_BENCH_SIGN_INS=n sets how many (default 20).\n',
  );
  process.exit(0);
}

const SIGN_INS = Number(process.env.LOREBOOK_BENCH_SIGN_INS ?? 20);
const DEVICE_RUNS = 50;
const log = (line: string): void => void process.stdout.write(`${line}\n`);

log('starting DynamoDB Local and the test PDS…');
const ddb = await startDynamoDbLocal();
const pds = await startTestPds();
const client = createStoreClient({ endpoint: ddb.endpoint });
await ensureTable(client, 'bench-sign-in');
const counter = countRoundTrips(client);
const ctx: AppContext = {
  store: { client, tableName: 'bench-sign-in', now: Date.now },
  config: { ...DEFAULT_APP_CONFIG, anonymousRateLimitPerMinute: 1_000_000 },
  sleep: (n) => new Promise((r) => setTimeout(r, n)),
  random: Math.random,
};

let handler: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
const server: ServerType = await new Promise((resolve) => {
  const listening = serve({ fetch: (request) => handler(request), port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
});
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const app = createHttpApp({
  ctx,
  search: createStorySearch(ctx),
  baseUrl,
  allowedOrigins: [],
  signIn: {
    config: { mode: 'loopback', handleResolver: pds.url, plcDirectoryUrl: pds.plc.url, allowPrivateFetch: true },
    log: () => undefined,
  },
});
handler = (request) => app.fetch(request);

try {
  const login: number[] = [];
  const atPds: number[] = [];
  const callback: number[] = [];
  const trips: number[] = [];
  log(`signing in ${SIGN_INS} new people, one after another…`);
  for (let i = 0; i < SIGN_INS; i += 1) {
    const person = await pds.createAccount(`bench${i}`);
    counter.reset();
    const { callbackUrl, jar } = await authorizeWithBluesky({
      baseUrl,
      handle: person.handle,
      password: person.password,
      onStep: (step, took) => void (step === 'PDS' ? atPds : login).push(took),
    });
    const began = performance.now();
    const answer = await deliverCallback(callbackUrl, jar);
    callback.push(performance.now() - began);
    if (answer.status !== 303) throw new Error(`sign-in ${i} failed: ${answer.status} ${answer.body.slice(0, 200)}`);
    trips.push(counter.total());
    if ((i + 1) % 5 === 0) log(`  ${i + 1}/${SIGN_INS}`);
  }

  log(`device flow: ${DEVICE_RUNS} pending polls and ${DEVICE_RUNS} token issues…`);
  const pending: number[] = [];
  const issued: number[] = [];
  for (let i = 0; i < DEVICE_RUNS; i += 1) {
    const started = await startDeviceAuthorization(ctx, 'bench');
    let began = performance.now();
    await pollDeviceAuthorization(ctx, { deviceCode: started.device_code });
    pending.push(performance.now() - began);
    await decideDeviceAuthorization(ctx, { account: 'did:plc:bench', userCode: started.user_code, decision: 'approved' });
    began = performance.now();
    const result = await pollDeviceAuthorization(ctx, { deviceCode: started.device_code });
    issued.push(performance.now() - began);
    if (result.kind !== 'token') throw new Error(`device run ${i}: expected a token, got ${result.error}`);
  }

  const p50 = (values: number[]) => percentile(values, 50);
  const ours = p50(login) + p50(callback);
  log('');
  log(`| part of a sign-in (${SIGN_INS} runs) | p50 ms | p99 ms |`);
  log('|---|---|---|');
  log(`| lorebook /auth/login (resolve handle, PAR at the PDS, store the state) | ${ms(p50(login))} | ${ms(percentile(login, 99))} |`);
  log(`| the PDS (authorize page, sign-in, consent, redirect) | ${ms(p50(atPds))} | ${ms(percentile(atPds, 99))} |`);
  log(
    `| lorebook /auth/callback (consume, exchange, revoke, resolve, account, session) | ${ms(p50(callback))} | ${ms(percentile(callback, 99))} |`,
  );
  log('');
  log(`lorebook's part / the PDS's part (p50): ${ratio(ours / p50(atPds))}`);
  log(`DynamoDB round trips per sign-in: ${Math.min(...trips)}–${Math.max(...trips)}`);
  log(
    `device flow (${DEVICE_RUNS} runs): pending poll p50 ${ms(p50(pending))} ms; the poll that issues the token p50 ${ms(p50(issued))} ms (${ratio(p50(issued) / p50(pending))} a pending poll)`,
  );
} finally {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  client.destroy();
  await pds.close();
  await ddb.stop();
}
