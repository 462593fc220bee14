import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import {
  accountRateSubject,
  consumeRateLimit,
  ipRateSubject,
  RATE_WINDOW_MS,
  type RateDecision,
  rateLimited,
  rateLimitHeaders,
} from '../../../src/app/context/rate-limit.ts';
import { authenticate } from '../../../src/app/oauth-server/authenticate.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { useOutside } from '../../helpers/outside.ts';

const app = useAppFixture('auth-rate-limit', { anonymousRateLimitPerMinute: 5 });
// A second AppContext on its own client: a second server instance sharing the table.
const otherInstance = useOutside(app);

const DAY = 24 * 60 * 60;

/** An instant early in a minute window near the store clock, so the test's calls share one window. */
function windowStart(ctx: AppContext): number {
  return (Math.floor(ctx.store.now() / RATE_WINDOW_MS) + 1) * RATE_WINDOW_MS;
}

async function consumeMany(ctx: AppContext, subject: string, count: number, now: number): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < count; i += 1) decisions.push(await consumeRateLimit(ctx, subject, now));
  return decisions;
}

describe('per-account rate limit: 100 calls a minute, held in one DynamoDB window item', () => {
  it('the 101st call of a minute is refused with a retry_after_ms that lands in the next window', async () => {
    const subject = accountRateSubject('acct-limit-one');
    const start = windowStart(app.ctx());
    const now = start + 15_000;
    const decisions = await consumeMany(app.ctx(), subject, 100, now);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(decisions[0]).toEqual({ allowed: true, limit: 100, remaining: 99, resetMs: 45_000, retryAfterMs: 0 });

    const before = await app.allItems();
    const refused = await consumeRateLimit(app.ctx(), subject, now + 1_000);
    expect(refused).toEqual({ allowed: false, limit: 100, remaining: 0, resetMs: 44_000, retryAfterMs: 44_000 });
    // The condition is the limit: a refused call writes nothing.
    expect(await app.allItems()).toEqual(before);
    expect(before.filter((i) => i.PK === `RATE#${subject}`)).toEqual([
      { PK: `RATE#${subject}`, SK: new Date(start).toISOString(), count: 100, expires_at: (start + RATE_WINDOW_MS) / 1000 + 120 },
    ]);

    // Waiting retry_after_ms is enough.
    const retried = await consumeRateLimit(app.ctx(), subject, now + 1_000 + refused.retryAfterMs);
    expect(retried).toMatchObject({ allowed: true, remaining: 99 });
  });

  it('the refusal is a retryable rate_limited error with retry_after_ms and the standard headers', () => {
    const decision: RateDecision = { allowed: false, limit: 100, remaining: 0, resetMs: 44_001, retryAfterMs: 44_001 };
    const error = rateLimited(decision);
    expect(error.toBody()).toMatchObject({ code: 'rate_limited', retryable: true, retry_after_ms: 44_001 });
    expect(error.httpStatus).toBe(429);
    expect(rateLimitHeaders(decision)).toEqual({
      'RateLimit-Policy': '"default";q=100;w=60',
      RateLimit: '"default";r=0;t=45',
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '45',
    });
  });

  it('the budget holds across two server instances sharing the table: 101 calls spread over both, one refused', async () => {
    const subject = accountRateSubject('acct-two-instances');
    const now = windowStart(app.ctx()) + 1_000;
    const instances = [app.ctx(), otherInstance()];
    const decisions = await Promise.all(
      Array.from({ length: 101 }, (_, i) => consumeRateLimit(instances[i % 2] as AppContext, subject, now)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.retryAfterMs).toBe(59_000);
    // Every allowed call saw its own count: the remaining values are 0..99, each once.
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('two tokens of one account share one budget, whichever instance serves them (a new token does not reset it)', async () => {
    const first = await createToken(app.ctx(), { handle: 'lena', expiresInSeconds: DAY });
    const second = await createToken(app.ctx(), { handle: 'lena', expiresInSeconds: DAY, client: 'other-client' });
    const now = windowStart(app.ctx()) + 2_000;
    const callers = await Promise.all([
      authenticate(app.ctx(), `Bearer ${first.token}`),
      authenticate(otherInstance(), `Bearer ${second.token}`),
    ]);
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 101; i += 1) {
      const caller = callers[i % 2];
      const ctx = i % 2 === 0 ? app.ctx() : otherInstance();
      decisions.push(await consumeRateLimit(ctx, accountRateSubject(caller!.account), now));
    }
    expect(decisions.slice(0, 100).every((d) => d.allowed)).toBe(true);
    expect(decisions[100]).toMatchObject({ allowed: false, retryAfterMs: 58_000 });
  });

  it('the limit is configurable', async () => {
    const small = withConfig(app.ctx(), { rateLimitPerMinute: 3 });
    const now = windowStart(app.ctx()) + 1;
    const decisions = await consumeMany(small, accountRateSubject('acct-small'), 4, now);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[0]?.limit).toBe(3);
  });
});

describe('anonymous calls have a per-IP budget of their own', () => {
  it('an IP has its own (configurable) budget, separate from accounts and from other IPs', async () => {
    const now = windowStart(app.ctx()) + 10_000;
    const ip = await consumeMany(app.ctx(), ipRateSubject('203.0.113.7'), 6, now);
    expect(ip.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(ip[0]?.limit).toBe(5);
    expect(ip[5]?.retryAfterMs).toBe(50_000);
    // Another IP and an account are untouched by the first IP's exhausted budget.
    expect((await consumeRateLimit(app.ctx(), ipRateSubject('2001:db8::1'), now)).allowed).toBe(true);
    expect(await consumeRateLimit(app.ctx(), accountRateSubject('acct-anon-neighbour'), now)).toMatchObject({
      allowed: true,
      limit: 100,
    });
  });
});

function withConfig(ctx: AppContext, config: Partial<AppContext['config']>): AppContext {
  return { ...ctx, config: { ...ctx.config, ...config } };
}
