import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleSchema } from '../../../src/auth/handle.ts';
import { isTokenId, isWellFormedToken, mintToken, tokenId } from '../../../src/auth/token-secret.ts';

describe('tokens', () => {
  it('are lbk_ + 32 random bytes in base64url, never twice the same', () => {
    const tokens = Array.from({ length: 64 }, mintToken);
    for (const token of tokens) {
      expect(token).toMatch(/^lbk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
      expect(isWellFormedToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('are identified by the sha256 hex of the whole token', () => {
    const token = mintToken();
    expect(tokenId(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(isTokenId(tokenId(token))).toBe(true);
    expect(isTokenId(tokenId(token).toUpperCase())).toBe(false);
    expect(isTokenId(token)).toBe(false);
  });

  it.each([
    '',
    'lbk_',
    `lbk_${'a'.repeat(42)}`,
    `lbk_${'a'.repeat(44)}`,
    `LBK_${'a'.repeat(43)}`,
    `lbk_${'a'.repeat(42)}=`,
    ` lbk_${'a'.repeat(43)}`,
  ])('%j is not well formed', (token) => {
    expect(isWellFormedToken(token)).toBe(false);
  });
});

describe('local handles', () => {
  it.each([
    ['alice', 'alice'],
    ['Alice', 'alice'],
    ['@alice.example.com', 'alice.example.com'],
    ['  bob-2 ', 'bob-2'],
    ['a', 'a'],
  ])('%j is the handle %j', (raw, handle) => {
    expect(handleSchema.parse(raw)).toBe(handle);
  });

  it.each([
    '',
    '@',
    'has space',
    '-alice',
    'alice-',
    'alice..x',
    '.alice',
    'alice.',
    'al_ice',
    'ålice',
    'a#b',
    `${'a'.repeat(64)}`,
    `${'a.'.repeat(127)}ab`,
  ])('%j is refused', (raw) => {
    expect(handleSchema.safeParse(raw).success).toBe(false);
  });
});
