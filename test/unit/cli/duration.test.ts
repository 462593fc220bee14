import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/cli/duration.ts';

describe('token lifetimes as typed', () => {
  it.each([
    ['30d', 30 * 86_400],
    ['12h', 12 * 3600],
    ['90m', 5400],
    ['3600s', 3600],
    ['2w', 14 * 86_400],
    ['1y', 365 * 86_400],
    [' 1D ', 86_400],
  ])('%j is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '30', 'd', '0d', '-1d', '1.5d', '1 d', '1month', '99999999999999999999d'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
