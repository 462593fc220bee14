// The anonymous routes that write for a stranger (starting a sign-in, starting and polling the
// device flow) are counted against the caller's IP like every other anonymous call.
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';

const server = useLorebookServer('e2e-sign-in-rate-limit', {
  config: { anonymousRateLimitPerMinute: 2 },
  signIn: () => ({ config: { mode: 'loopback' }, log: () => undefined }),
});

describe('Rate limits on the sign-in routes', () => {
  // The budget is per minute: a run that crossed a minute between two calls started a new one.
  beforeAll(() => server.app.freeze());
  it('past the per-IP budget, /auth/login is a 429 page and device start a 429 problem, with Retry-After', async () => {
    for (let i = 0; i < 2; i += 1) expect((await server.fetch('/auth/login')).status).toBe(200);
    const page = await server.fetch('/auth/login', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('<code>rate_limited</code>');
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    const start = await server.fetch('/v1/auth/device/start', { method: 'POST' });
    expect(start.status).toBe(429);
    expect(start.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await start.json()).toMatchObject({ code: 'rate_limited', retryable: true });
    expect((await server.app.state()).filter((item) => /^(OAUTHSTATE|DEVICE|USERCODE)#/.test(String(item.PK)))).toEqual([]);
  });
});
