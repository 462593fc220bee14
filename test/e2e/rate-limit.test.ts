// Rate limits hold per account across its tokens and across server instances sharing the table
// (one DynamoDB window item), and per IP for anonymous calls; the refusal says when to retry.
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';

const ANONYMOUS_LIMIT = 5;
const server = useLorebookServer('e2e-rate-limit', {
  config: { rateLimitPerMinute: DEFAULT_APP_CONFIG.rateLimitPerMinute, anonymousRateLimitPerMinute: ANONYMOUS_LIMIT },
});

const WINDOW_MS = 60_000;

/**
 * Starts the test early in a window (on the store clock) and stops the clock there, so neither a
 * minute boundary nor a slow machine can split the test's calls over two windows.
 */
function atWindowStart(): void {
  server.app.freeze();
  const into = server.app.ctx().store.now() % WINDOW_MS;
  if (into > 5_000) server.app.advance(WINDOW_MS - into + 10);
}

describe('per account', () => {
  it('the 101st call in a minute from one account is 429 rate_limited, across two of its tokens and two server instances', async () => {
    expect(DEFAULT_APP_CONFIG.rateLimitPerMinute).toBe(100);
    const first = await server.token('alice');
    const second = await server.token('alice');
    expect(second.account).toBe(first.account);
    const instances = [server.baseUrl(), await server.anotherInstance()];
    atWindowStart();

    const call = (i: number) =>
      fetch(`${instances[i % 2]}/v1/notifications`, { headers: { Authorization: `Bearer ${(i % 2 === 0 ? first : second).token}` } });
    for (let i = 0; i < 100; i += 1) {
      const response = await call(i);
      expect(response.status, `call ${i + 1}`).toBe(200);
      expect(response.headers.get('ratelimit'), `call ${i + 1}`).toMatch(new RegExp(`^"default";r=${99 - i};t=\\d+$`));
    }

    const refused = await call(100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await refused.json()) as { code: string; retryable: boolean; retry_after_ms: number };
    expect(body).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(body.retry_after_ms).toBeGreaterThan(0);
    expect(body.retry_after_ms).toBeLessThanOrEqual(WINDOW_MS);
    expect(Number(refused.headers.get('retry-after'))).toBe(Math.ceil(body.retry_after_ms / 1000));
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=100;w=60');
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);

    // MCP shares the budget: refused before the transport, with the typed error as JSON-RPC data.
    const viaMcp = await fetch(`${instances[1]}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${first.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_notifications', arguments: {} } }),
    });
    expect(viaMcp.status).toBe(429);
    expect(viaMcp.headers.get('retry-after')).not.toBeNull();
    expect(((await viaMcp.json()) as { error: { data: { code: string } } }).error.data.code).toBe('rate_limited');

    // retry_after_ms is usable: after waiting it, the same call is served.
    server.app.advance(body.retry_after_ms);
    expect((await call(0)).status).toBe(200);
    // 100 sequential calls: on a loaded 2-core machine they can take longer than the default 30 s.
  }, 180_000);
});

describe('per IP without a token', () => {
  it(`the ${ANONYMOUS_LIMIT + 1}th anonymous call in a minute is 429 with Retry-After; a signed-in call has its own budget`, async () => {
    atWindowStart();
    for (let i = 0; i < ANONYMOUS_LIMIT; i += 1) expect((await server.fetch('/v1/stories')).status, `call ${i + 1}`).toBe(200);
    const refused = await server.fetch('/v1/stories');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const { token } = await server.token('bob');
    expect((await server.fetch('/v1/stories', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe('calls refused for their token', () => {
  it(`count against the IP budget: after ${ANONYMOUS_LIMIT} guesses the next one is 429, not another 401`, async () => {
    server.app.advance(WINDOW_MS);
    atWindowStart();
    const guess = () => server.fetch('/v1/notifications', { headers: { Authorization: `Bearer lbk_${'A'.repeat(43)}` } });
    for (let i = 0; i < ANONYMOUS_LIMIT; i += 1) expect((await guess()).status, `guess ${i + 1}`).toBe(401);
    const refused = await guess();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
  });
});

describe('MCP resources, prompts, completions and unknown methods', () => {
  it(`count against the anonymous IP budget like the public reads: the ${ANONYMOUS_LIMIT + 1}th is 429`, async () => {
    server.app.advance(WINDOW_MS);
    atWindowStart();
    const rpc = (method: string, params: Record<string, unknown> = {}) =>
      server.fetch('/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    const calls: Array<[string, Record<string, unknown>?]> = [
      ['resources/read', { uri: 'lorebook://guide' }],
      ['resources/list'],
      ['prompts/get', { name: 'write_story' }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'check_story' }, argument: { name: 'slug', value: '' } }],
      ['no/such/method'],
    ];
    expect(calls.length).toBe(ANONYMOUS_LIMIT);
    for (const [method, params] of calls) expect((await rpc(method, params)).status, method).toBe(200);
    const refused = await rpc('resources/read', { uri: 'lorebook://guide' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { data: { code: string } } }).error.data.code).toBe('rate_limited');
  });
});
