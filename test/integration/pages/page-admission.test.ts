// Pages are anonymous reads: every visit counts against the caller's IP budget like any call
// without a token, and a page never reads the Authorization header (a stale or foreign token
// cannot turn a page into a 401, and cannot make it show anything more).
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';

const server = useLorebookServer('pages-admission', { config: { anonymousRateLimitPerMinute: 3 } });

// The budget is a fixed one-minute window: the store clock starts a second into one and stays
// there, so the test never straddles two.
beforeAll(() => {
  server.app.advance(60_000 - (Date.now() % 60_000) + 1_000);
  server.app.freeze();
});

describe('page visits and the anonymous budget', () => {
  it('a token that is not valid is ignored: the page answers 200, not 401', async () => {
    const response = await server.fetch('/', { headers: { Authorization: 'Bearer lbk_not-a-real-token' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
    await response.text();
  });

  it('past the per-IP budget a page is a 429 with Retry-After, and the visits before it carried the RateLimit headers', async () => {
    const answers: Response[] = [];
    for (let index = 0; index < 4; index += 1) answers.push(await server.fetch('/feed.atom'));
    // One visit was spent by the test above; the budget is 3 a minute.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429]);
    expect(answers[0]?.headers.get('ratelimit-remaining')).toBe('1');
    const refused = answers[2] as Response;
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', retryable: true });
    await Promise.all(answers.filter((answer) => !answer.bodyUsed).map((answer) => answer.text()));
  });
});
