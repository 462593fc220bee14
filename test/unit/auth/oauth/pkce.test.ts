import { describe, expect, it } from 'vitest';
import { isCodeChallenge, s256, verifierMatches } from '../../../../src/auth/oauth/pkce.ts';

describe('PKCE S256', () => {
  it('matches the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });

  it('refuses a verifier that is the challenge itself (what plain would accept)', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(verifierMatches(verifier, verifier)).toBe(false);
  });

  it('refuses verifiers outside 43..128 unreserved characters, and challenges that are not a base64url sha256', () => {
    expect(verifierMatches('short', s256('short'))).toBe(false);
    const tooLong = 'a'.repeat(129);
    expect(verifierMatches(tooLong, s256(tooLong))).toBe(false);
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c=')).toBe(false);
  });
});
