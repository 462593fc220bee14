import { describe, expect, it } from 'vitest';
import type { VerifiedToken } from '../../../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../../../src/app/context/verified-tokens.ts';

const NOW = 1_800_000_000_000;
const token = (account: string): VerifiedToken => ({
  caller: { account, handle: `${account}.test` },
  expiresAt: NOW / 1000 + 3600,
  createdAt: new Date(NOW).toISOString(),
});

describe('remembered tokens are bounded', () => {
  it('past maxEntries the least recently used token is forgotten, and a use counts as recent', () => {
    const tokens = new VerifiedTokens<VerifiedToken>(30_000, 2);
    tokens.remember('hash-a', token('a'), NOW, tokens.mark());
    tokens.remember('hash-b', token('b'), NOW, tokens.mark());
    // a is used, so b is now the least recently used.
    expect(tokens.lookUp('hash-a', NOW)).toBeDefined();
    tokens.remember('hash-c', token('c'), NOW, tokens.mark());
    expect(tokens.size).toBe(2);
    expect(tokens.lookUp('hash-b', NOW)).toBeUndefined();
    expect(tokens.lookUp('hash-a', NOW)?.caller.account).toBe('a');
    expect(tokens.lookUp('hash-c', NOW)?.caller.account).toBe('c');
  });

  it('10,000 entries by default: 10,001 distinct tokens leave 10,000', () => {
    const tokens = new VerifiedTokens<VerifiedToken>();
    for (let i = 0; i <= 10_000; i += 1) tokens.remember(`hash-${i}`, token(String(i)), NOW, tokens.mark());
    expect(tokens.size).toBe(10_000);
    expect(tokens.lookUp('hash-0', NOW)).toBeUndefined();
  });

  it('an entry is trusted for trustMs after its read and no longer', () => {
    const tokens = new VerifiedTokens<VerifiedToken>(30_000, 10);
    tokens.remember('hash-a', token('a'), NOW, tokens.mark());
    expect(tokens.lookUp('hash-a', NOW + 29_999)).toBeDefined();
    expect(tokens.lookUp('hash-a', NOW + 30_000)).toBeUndefined();
    // A stale entry is dropped, not kept.
    expect(tokens.size).toBe(0);
  });

  it('a read begun before a forget() is not remembered', () => {
    const tokens = new VerifiedTokens<VerifiedToken>(30_000, 10);
    const mark = tokens.mark();
    tokens.forget(['hash-other']);
    tokens.remember('hash-a', token('a'), NOW, mark);
    expect(tokens.lookUp('hash-a', NOW)).toBeUndefined();
  });
});
