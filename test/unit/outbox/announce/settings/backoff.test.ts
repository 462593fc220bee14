import { describe, expect, it } from 'vitest';
import { announceBackoff } from '../../../../../src/outbox/announce/settings.ts';

const settings = { backoffBaseMs: 30_000, backoffCapMs: 3_600_000 };

describe('announce backoff: exponential, capped, jittered on its upper half', () => {
  it.each([
    [1, 15_000, 30_000],
    [2, 30_000, 60_000],
    [3, 60_000, 120_000],
    [10, 1_800_000, 3_600_000],
  ])('attempt %i waits between %i and %i ms', (attempt, low, high) => {
    expect(announceBackoff(settings, attempt, 0)).toBe(low);
    expect(announceBackoff(settings, attempt, 0.999_999)).toBeLessThanOrEqual(high);
    expect(announceBackoff(settings, attempt, 0.999_999)).toBeGreaterThan(high - 10);
  });
});
