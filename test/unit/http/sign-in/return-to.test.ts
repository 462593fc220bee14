import { describe, expect, it } from 'vitest';
import { LorebookError } from '../../../../src/domain/errors.ts';
import { DEFAULT_RETURN_TO, safeReturnTo } from '../../../../src/http/sign-in/return-to.ts';

const BASE = 'https://lorebook.example';

describe('return_to after sign-in is only ever a path on this server', () => {
  it('keeps a path with its query and fragment', () => {
    expect(safeReturnTo('/device?user_code=ABCD-EFGH#x', BASE)).toBe('/device?user_code=ABCD-EFGH#x');
    expect(safeReturnTo('/a/alice.test', BASE)).toBe('/a/alice.test');
  });

  it('defaults to the account page when absent', () => {
    expect(safeReturnTo(undefined, BASE)).toBe(DEFAULT_RETURN_TO);
    expect(safeReturnTo('', BASE)).toBe(DEFAULT_RETURN_TO);
  });

  it.each([
    'https://evil.example/',
    'http://lorebook.example/',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\/evil.example',
    'javascript:alert(1)',
    'account',
    '/ok\nSet-Cookie: x=1',
    `/${'a'.repeat(2_001)}`,
  ])('refuses %j with validation_failed', (raw) => {
    expect(() => safeReturnTo(raw, BASE)).toThrow(LorebookError);
    try {
      safeReturnTo(raw, BASE);
    } catch (error) {
      expect((error as LorebookError).code).toBe('validation_failed');
    }
  });
});
