import { XRPCError } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { boundedFetch } from '../../../../integrations/bluesky/bounded-fetch.ts';
import { retryAfter, toAnnounceFailure } from '../../../../integrations/bluesky/failures.ts';

const now = (): number => Date.parse('2026-10-14T10:00:00.000Z');
const where = 'http://127.0.0.1:1 as lorebook.test';

describe('errors from @atproto/api become the failure kinds the announcer decides on', () => {
  it('a refused connection is unreachable; an aborted call is a timeout', () => {
    const refused = new XRPCError(1, undefined, 'fetch failed', undefined, {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(toAnnounceFailure(refused, 'post', where, now)).toMatchObject({ kind: 'unreachable', permanent: false });
    expect(toAnnounceFailure(refused, 'post', where, now).message).toContain('ECONNREFUSED');
    const timedOut = new XRPCError(1, undefined, 'aborted', undefined, { cause: new DOMException('timeout', 'TimeoutError') });
    expect(toAnnounceFailure(timedOut, 'post', where, now)).toMatchObject({ kind: 'timeout' });
  });

  it('429 is rate_limited with retry-after in ms; 5xx is server', () => {
    const limited = new XRPCError(429, 'RateLimitExceeded', 'slow down', { 'retry-after': '120' });
    expect(toAnnounceFailure(limited, 'post', where, now)).toMatchObject({ kind: 'rate_limited', retryAfterMs: 120_000 });
    expect(toAnnounceFailure(new XRPCError(502, undefined, 'bad gateway'), 'post', where, now)).toMatchObject({ kind: 'server' });
  });

  it('a refused sign-in is credentials (permanent, says which settings to check); another 4xx is rejected', () => {
    const refused = toAnnounceFailure(
      new XRPCError(401, 'AuthenticationRequired', 'Invalid identifier or password'),
      'sign-in',
      where,
      now,
    );
    expect(refused).toMatchObject({ kind: 'credentials', permanent: true });
    expect(refused.message).toContain('BLUESKY_APP_PASSWORD');
    expect(toAnnounceFailure(new XRPCError(400, 'InvalidRequest', 'bad record'), 'post', where, now)).toMatchObject({
      kind: 'rejected',
      permanent: true,
    });
  });
});

describe('a refused session is not the post’s fault', () => {
  it('401 or an expired token after sign-in is retryable (server), and says the next attempt signs in again', () => {
    for (const error of [new XRPCError(401, 'AuthenticationRequired', 'no'), new XRPCError(400, 'ExpiredToken', 'expired')]) {
      const failure = toAnnounceFailure(error, 'post', where, now);
      expect(failure).toMatchObject({ kind: 'server', permanent: false });
      expect(failure.message).toContain('signs in again');
    }
  });

  it('an answer that is not valid XRPC is a server failure, not a rejection', () => {
    expect(toAnnounceFailure(new XRPCError(2, 'InvalidResponse', 'garbled'), 'post', where, now)).toMatchObject({ kind: 'server' });
  });
});

describe('retry-after', () => {
  it('reads seconds, an HTTP date, or falls back to ratelimit-reset', () => {
    expect(retryAfter({ 'retry-after': '2' }, now)).toBe(2_000);
    expect(retryAfter({ 'retry-after': 'Wed, 14 Oct 2026 10:01:00 GMT' }, now)).toBe(60_000);
    expect(retryAfter({ 'ratelimit-reset': String(now() / 1000 + 30) }, now)).toBe(30_000);
    expect(retryAfter({}, now)).toBeUndefined();
    expect(retryAfter(undefined, now)).toBeUndefined();
  });
});

describe('boundedFetch', () => {
  it('aborts a call that outlives the timeout, and keeps the caller’s own signal', async () => {
    const seen: AbortSignal[] = [];
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        seen.push(init?.signal as AbortSignal);
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    await expect(boundedFetch(20, hang)('http://127.0.0.1:1/')).rejects.toMatchObject({ name: 'TimeoutError' });
    const own = new AbortController();
    const call = boundedFetch(60_000, hang)(new Request('http://127.0.0.1:1/', { signal: own.signal }));
    own.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    expect(seen).toHaveLength(2);
  });
});
