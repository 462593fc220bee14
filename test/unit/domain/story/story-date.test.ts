import { describe, expect, it } from 'vitest';
import { isTooFarAhead, latestStoryDate } from '../../../../src/domain/story/story-date.ts';

const at = (iso: string): number => Date.parse(iso);

describe('a story date may be at most the UTC day after today', () => {
  it('late on a UTC day, the next day is the latest (UTC+14 is already there)', () => {
    expect(latestStoryDate(at('2026-12-02T23:59:59Z'))).toBe('2026-12-03');
    expect(isTooFarAhead('2026-12-03', at('2026-12-02T23:59:59Z'))).toBe(false);
    expect(isTooFarAhead('2026-12-04', at('2026-12-02T23:59:59Z'))).toBe(true);
  });

  it('early on a UTC day, yesterday and today are fine and two days ahead is not', () => {
    expect(isTooFarAhead('2026-12-01', at('2026-12-02T00:00:00Z'))).toBe(false);
    expect(isTooFarAhead('2026-12-02', at('2026-12-02T00:00:00Z'))).toBe(false);
    expect(isTooFarAhead('2026-12-04', at('2026-12-02T00:00:00Z'))).toBe(true);
  });

  it('across a month and a year end', () => {
    expect(latestStoryDate(at('2026-12-31T12:00:00Z'))).toBe('2027-01-01');
    expect(isTooFarAhead('2027-01-02', at('2026-12-31T12:00:00Z'))).toBe(true);
  });
});
