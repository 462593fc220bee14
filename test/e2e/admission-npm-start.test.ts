// Admission before work and outbound budgets, through the real `npm start` (design.md#admission). A local
// counting HTTP server on 127.0.0.1 stands in for the PLC directory (LOREBOOK_PLC_DIRECTORY_URL)
// and for the hosts of OAuth client metadata documents (LOREBOOK_ALLOW_PRIVATE_FETCH lets lorebook
// reach it); it answers 404 to everything and counts what it is asked. Each flood comes from a
// loopback address of its own (127.0.0.x: npm start keys budgets by the socket's peer), so each
// meets a fresh budget. Budgets are per clock minute (or hour): a flood that straddles a boundary
// may spend a budget once per window it touched, and the bounds below allow exactly that.

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDid } from '../../src/domain/feed-generator.ts';
import { answeredWithoutBody, sendFrom } from '../helpers/from-address.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { testEndpoint, useTestTable } from '../helpers/test-table.ts';

const FETCH_BUDGET = 10;
const REGISTRATIONS_PER_HOUR = 5;
const ANONYMOUS_BUDGET = 150;
const PUBLISHER = 'did:plc:abcdefghijklmnopqrstuvwx';
const MAIN_FEED = `at://${PUBLISHER}/app.bsky.feed.generator/lorebook`;
const MINUTE_MS = 60_000;

const table = useTestTable('e2e-admission');
let server: NpmStart;
let counting: Server;
let countingOrigin = '';
const asked: string[] = [];

beforeAll(async () => {
  counting = createServer((request, response) => {
    asked.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
  countingOrigin = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
  server = await startNpmStart({
    endpoint: testEndpoint(),
    table: table.tableName,
    env: {
      LOREBOOK_ALLOW_PRIVATE_FETCH: '1',
      LOREBOOK_PLC_DIRECTORY_URL: `${countingOrigin}/plc`,
      BLUESKY_FEED_PUBLISHER_DID: PUBLISHER,
      LOREBOOK_OUTBOUND_FETCHES_PER_MINUTE: String(FETCH_BUDGET),
      LOREBOOK_OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR),
      LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: String(ANONYMOUS_BUDGET),
      // A refused 7 MB body is answered after the hold (refusal-hold-npm-start.test.ts): kept short here.
      LOREBOOK_REFUSAL_HOLD_MS: '1000',
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  counting.closeAllConnections();
  await new Promise<void>((resolve) => counting.close(() => resolve()));
}, 60_000);

/** How many windows of `windowMs` the span from `startMs` to now touched. */
const windowsSince = (startMs: number, windowMs = MINUTE_MS): number =>
  Math.floor(Date.now() / windowMs) - Math.floor(startMs / windowMs) + 1;

/** A did:plc no one has asked about before. */
const freshDid = (): string => `did:plc:${Array.from(randomBytes(24), (byte) => 'abcdefghijklmnopqrstuvwxyz234567'[byte % 32]).join('')}`;

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A service-auth JWT for this server that names a fresh DID and carries a signature nobody made. */
function unsignedJwt(lxm: string): string {
  const payload = { iss: freshDid(), aud: serviceDid(server.baseUrl), exp: Math.floor(Date.now() / 1000) + 600, lxm };
  return `${base64url({ alg: 'ES256K', typ: 'JWT' })}.${base64url(payload)}.${randomBytes(64).toString('base64url')}`;
}

/** Runs `count` requests, `parallel` at a time. */
async function flood<T>(count: number, parallel: number, one: (index: number) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, offset) => one(start + offset));
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}

const fetchesTo = (prefix: string): number => asked.filter((url) => url.startsWith(prefix)).length;

describe('a fetch made for a stranger is paid for by its address before it is made', () => {
  it('120 feed skeleton requests naming fresh DIDs make at most the budget of DID-document fetches', async () => {
    const startedAt = Date.now();
    const answers = await flood(120, 20, () =>
      sendFrom('127.0.0.3', `${server.baseUrl}/xrpc/app.bsky.feed.getFeedSkeleton?feed=${encodeURIComponent(MAIN_FEED)}`, {
        headers: { Authorization: `Bearer ${unsignedJwt('app.bsky.feed.getFeedSkeleton')}` },
      }),
    );
    // The main feed serves a JWT that does not check out as anonymous: every request is answered.
    expect(answers.map((answer) => answer.status)).toEqual(Array(120).fill(200));
    expect(fetchesTo('/plc/')).toBeGreaterThan(0);
    expect(fetchesTo('/plc/')).toBeLessThanOrEqual(FETCH_BUDGET * windowsSince(startedAt));
  });

  it('120 authorize requests naming fresh client_id URLs make at most the budget of document fetches; past it 429', async () => {
    const startedAt = Date.now();
    const answers = await flood(120, 20, (index) => {
      const query = new URLSearchParams({
        client_id: `${countingOrigin}/clients/${index}/client.json`,
        redirect_uri: 'http://127.0.0.1:49152/callback',
        response_type: 'code',
        code_challenge: randomBytes(32).toString('base64url'),
        code_challenge_method: 'S256',
      });
      return sendFrom('127.0.0.4', `${server.baseUrl}/oauth/authorize?${query.toString()}`);
    });
    expect(fetchesTo('/clients/')).toBeGreaterThan(0);
    expect(fetchesTo('/clients/')).toBeLessThanOrEqual(FETCH_BUDGET * windowsSince(startedAt));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(120 - FETCH_BUDGET * windowsSince(startedAt));
    expect(refused[0]?.json()).toMatchObject({ code: 'rate_limited', details: { reason: 'fetch_budget', limit: FETCH_BUDGET } });
  });

  it('80 sendInteractions with refused JWTs make at most the budget of fetches, and none of them is answered 200', async () => {
    const before = fetchesTo('/plc/');
    const startedAt = Date.now();
    const answers = await flood(80, 20, () =>
      sendFrom('127.0.0.5', `${server.baseUrl}/xrpc/app.bsky.feed.sendInteractions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${unsignedJwt('app.bsky.feed.sendInteractions')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ interactions: [] }),
      }),
    );
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(fetchesTo('/plc/') - before).toBeLessThanOrEqual(FETCH_BUDGET * windowsSince(startedAt));
  });
});

describe('registration is budgeted per address', () => {
  it("a burst from one address spends that address's hour and leaves another address registering", async () => {
    const register = (address: string, name: string) =>
      sendFrom(address, `${server.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: name, redirect_uris: ['https://burst.example/cb'] }),
      });
    let refused: Awaited<ReturnType<typeof register>> | undefined;
    // Bounded: two hours' budgets at the most, should the burst straddle a clock hour.
    for (let index = 0; index <= 2 * REGISTRATIONS_PER_HOUR && refused === undefined; index += 1) {
      const answer = await register('127.0.0.6', `burst ${index}`);
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(201);
    }
    expect(refused?.json()).toMatchObject({ code: 'rate_limited', details: { reason: 'registration_budget' } });
    expect((await register('127.0.0.7', 'a genuine client')).status).toBe(201);
  });
});

describe('a refused POST /mcp reads no body: the answer comes while the body is still held back', () => {
  const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

  it('a bogus token with a 7 MB body is 401 before the body is sent', async () => {
    for (const authorization of ['Bearer x', `Bearer lbk_${randomBytes(32).toString('base64url')}`]) {
      const answer = await answeredWithoutBody(
        `${server.baseUrl}/mcp`,
        { method: 'POST', headers: { ...mcpHeaders, Authorization: authorization }, declaredBytes: 7_400_000, sent: '{"jsonrpc":"2.0",' },
        '127.0.0.9',
      );
      expect(answer.status).toBe(401);
    }
  });

  it('a call past its address budget is 429 before the body is sent', async () => {
    // The window must stay the same from the last counted call to the held one: start with room to spare in this minute.
    const left = MINUTE_MS - (Date.now() % MINUTE_MS);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const ping = () =>
      sendFrom('127.0.0.8', `${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
    let spent = false;
    for (let index = 0; index <= ANONYMOUS_BUDGET && !spent; index += 1) spent = (await ping()).status === 429;
    expect(spent).toBe(true);
    const answer = await answeredWithoutBody(
      `${server.baseUrl}/mcp`,
      { method: 'POST', headers: mcpHeaders, declaredBytes: 400_000, sent: '{"jsonrpc":"2.0",' },
      '127.0.0.8',
    );
    expect(answer.status).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });
});
