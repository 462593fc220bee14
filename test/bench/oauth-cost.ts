// `npm run bench:oauth`: what lorebook's OAuth server costs, as ratios measured in one run on one
// DynamoDB Local, through the real hono app in-process (no sockets, so only lorebook's own work
// and the store are timed):
//   (1) an MCP call with an OAuth access token (resource-bound) vs the same call with an admin
//       token: the resource check rides on the one token read, so the ratio should be ~1 and the
//       store round trips per call equal;
//   (2) the token endpoint — code exchange and refresh rotation, each one transaction — vs an
//       admin token creation (one transaction of two items).
// Prints progress, then a table. LOREBOOK_BENCH_QUICK=1: few calls (a smoke test, not a result).

import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { createStorySearch } from '../../src/app/search/story-search.ts';
import { recordBlueskySignIn } from '../../src/app/sign-in/bluesky-sign-in.ts';
import { startWebSession, WEB_SESSION_COOKIE } from '../../src/app/sign-in/web-session.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { pkcePair } from '../helpers/oauth/oauth-flow.ts';
import { countRoundTrips } from '../helpers/round-trips.ts';
import { ms, percentile, ratio } from './stats.ts';

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: npm run bench:oauth   (LOREBOOK_BENCH_QUICK=1 for a smoke run)\nMeasures an OAuth-token MCP call vs an admin-token call, and the token endpoint vs an admin token creation; prints ratios.\n',
  );
  process.exit(0);
}
const QUICK = process.env.LOREBOOK_BENCH_QUICK === '1';
const CALLS = QUICK ? 20 : 300;
const BASE = 'http://127.0.0.1:8787';
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const ddb = await startDynamoDbLocal({ log });
const client = createStoreClient({ endpoint: ddb.endpoint });
const ctx: AppContext = {
  store: { client, tableName: 'bench-oauth', now: Date.now },
  config: { ...DEFAULT_APP_CONFIG, rateLimitPerMinute: 1_000_000, anonymousRateLimitPerMinute: 1_000_000 },
  sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
  random: Math.random,
};
const counter = countRoundTrips(client);

try {
  await ensureTable(client, ctx.store.tableName);
  const app = createHttpApp({ ctx, search: createStorySearch(ctx), baseUrl: BASE, allowedOrigins: [] });
  // In-process requests carry no Host header unless given one; the Host guard wants this server's.
  const request = (path: string, init: RequestInit): Promise<Response> =>
    Promise.resolve(
      app.request(`${BASE}${path}`, {
        ...init,
        headers: { Host: new URL(BASE).host, ...(init.headers as Record<string, string> | undefined) },
      }),
    );
  const form = (path: string, fields: Record<string, string>, cookie?: string) =>
    request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie === undefined ? {} : { Cookie: cookie }) },
      body: new URLSearchParams(fields).toString(),
    });

  const did = 'did:plc:benchoauthperson0000000';
  await recordBlueskySignIn(ctx, { did, handle: 'bench.test' });
  const cookie = `${WEB_SESSION_COOKIE}=${(await startWebSession(ctx, did)).cookieValue}`;
  const redirectUri = 'http://127.0.0.1:45454/callback';
  const registered = (await (
    await request('/oauth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'bench', redirect_uris: [redirectUri] }),
    })
  ).json()) as { client_id: string };

  /** One full authorize + approve: a fresh code and its verifier. */
  const newCode = async (): Promise<{ code: string; verifier: string }> => {
    const pkce = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource: `${BASE}/mcp`,
    });
    const page = await (await request(`/oauth/authorize?${query.toString()}`, { headers: { Cookie: cookie } })).text();
    const consent = /name="consent" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const location = (await form('/oauth/consent', { consent, decision: 'approve' }, cookie)).headers.get('location') ?? '';
    return { code: new URL(location).searchParams.get('code') ?? '', verifier: pkce.verifier };
  };
  const exchange = async (code: { code: string; verifier: string }) =>
    (await (
      await form('/oauth/token', {
        grant_type: 'authorization_code',
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: redirectUri,
        client_id: registered.client_id,
        resource: `${BASE}/mcp`,
      })
    ).json()) as { access_token: string; refresh_token: string };

  const timeEach = async (
    label: string,
    count: number,
    body: (index: number) => Promise<unknown>,
  ): Promise<{ p50: number; roundTrips: number }> => {
    const times: number[] = [];
    counter.reset();
    for (let index = 0; index < count; index += 1) {
      const start = performance.now();
      await body(index);
      times.push(performance.now() - start);
    }
    const result = { p50: percentile(times, 50), roundTrips: counter.total() / count };
    log(`  ${label}: p50 ${ms(result.p50)}, ${result.roundTrips.toFixed(1)} store calls each (${count} calls)`);
    return result;
  };

  log(
    `(1) an MCP call (list_notifications) with an OAuth token vs an admin token, ${CALLS} calls each in 4 alternating rounds (the median round's p50)`,
  );
  const oauthToken = (await exchange(await newCode())).access_token;
  const adminToken = (await createToken(ctx, { handle: 'bench-admin', expiresInSeconds: 3600 })).token;
  const mcpCall = (token: string) =>
    request('/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
        Authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_notifications', arguments: {} } }),
    }).then(async (response) => {
      if (response.status !== 200) throw new Error(`MCP call answered ${response.status}: ${await response.text()}`);
    });
  await timeEach('warm-up', 50, (index) => mcpCall(index % 2 === 0 ? oauthToken : adminToken));
  // Alternating rounds, so JIT warm-up and machine load fall on both sides alike.
  const rounds = { admin: [] as { p50: number; roundTrips: number }[], oauth: [] as { p50: number; roundTrips: number }[] };
  for (let round = 0; round < 4; round += 1) {
    rounds.admin.push(await timeEach(`admin token, round ${round + 1}`, CALLS / 4, () => mcpCall(adminToken)));
    rounds.oauth.push(await timeEach(`OAuth token, round ${round + 1}`, CALLS / 4, () => mcpCall(oauthToken)));
  }
  const median = (values: { p50: number; roundTrips: number }[]) => ({
    p50: percentile(
      values.map((v) => v.p50),
      50,
    ),
    roundTrips: percentile(
      values.map((v) => v.roundTrips),
      50,
    ),
  });
  const admin = median(rounds.admin);
  const oauth = median(rounds.oauth);

  const exchanges = QUICK ? 10 : 100;
  log(`(2) the token endpoint vs an admin token creation, ${exchanges} each (codes prepared first, not timed)`);
  const codes: { code: string; verifier: string }[] = [];
  for (let index = 0; index < exchanges; index += 1) codes.push(await newCode());
  const created = await timeEach('admin token create', exchanges, () =>
    createToken(ctx, { handle: 'bench-admin', expiresInSeconds: 3600 }),
  );
  const refreshTokens: string[] = [];
  const exchanged = await timeEach('code exchange', exchanges, async (index) =>
    refreshTokens.push((await exchange(codes[index] as (typeof codes)[number])).refresh_token),
  );
  const refreshed = await timeEach('refresh rotation', exchanges, (index) =>
    form('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshTokens[index] as string, client_id: registered.client_id }),
  );

  log('');
  log('| measured | p50 (ms) | store calls per call | ratio |');
  log('|---|---|---|---|');
  log(
    `| MCP call, OAuth token / admin token | ${ms(oauth.p50)} / ${ms(admin.p50)} | ${oauth.roundTrips.toFixed(1)} / ${admin.roundTrips.toFixed(1)} | ${ratio(oauth.p50 / admin.p50)} |`,
  );
  log(
    `| code exchange / admin token create | ${ms(exchanged.p50)} / ${ms(created.p50)} | ${exchanged.roundTrips.toFixed(1)} / ${created.roundTrips.toFixed(1)} | ${ratio(exchanged.p50 / created.p50)} |`,
  );
  log(
    `| refresh rotation / admin token create | ${ms(refreshed.p50)} / ${ms(created.p50)} | ${refreshed.roundTrips.toFixed(1)} / ${created.roundTrips.toFixed(1)} | ${ratio(refreshed.p50 / created.p50)} |`,
  );
} finally {
  counter.detach();
  client.destroy();
  await ddb.stop();
}
