import { describe, expect, it } from 'vitest';
import {
  deriveDeviceCode,
  isWellFormedDeviceCode,
  mintDeviceCode,
  mintSalt,
  mintUserCode,
  normalizeUserCode,
} from '../../../src/auth/device-codes.ts';

describe('device-flow codes', () => {
  it('user codes are XXXX-XXXX from the 20 consonants, and differ between draws', () => {
    const codes = Array.from({ length: 200 }, mintUserCode);
    for (const code of codes) expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(new Set(codes).size).toBeGreaterThan(195);
  });

  it('what a person types is read in any case, with or without the dash or spaces', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDF-GHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdfghjk')).toBe('BCDF-GHJK');
  });

  it.each(['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', '', '1234-5678'])('%j is not a user code', (typed) => {
    expect(normalizeUserCode(typed)).toBeUndefined();
  });

  it('device codes are lbd_ + 43 base64url characters, random or derived from a key', () => {
    expect(isWellFormedDeviceCode(mintDeviceCode())).toBe(true);
    expect(isWellFormedDeviceCode(deriveDeviceCode('some-key-0123456789', mintSalt()))).toBe(true);
    expect(isWellFormedDeviceCode('lbd_short')).toBe(false);
    expect(isWellFormedDeviceCode(`lbk_${'a'.repeat(43)}`)).toBe(false);
  });

  it('a derived device code is the same for the same key and salt, different for another key or salt', () => {
    const salt = mintSalt();
    expect(deriveDeviceCode('key-one-0123456789', salt)).toBe(deriveDeviceCode('key-one-0123456789', salt));
    expect(deriveDeviceCode('key-two-0123456789', salt)).not.toBe(deriveDeviceCode('key-one-0123456789', salt));
    expect(deriveDeviceCode('key-one-0123456789', mintSalt())).not.toBe(deriveDeviceCode('key-one-0123456789', salt));
  });
});
