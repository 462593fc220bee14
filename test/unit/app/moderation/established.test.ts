import { describe, expect, it } from 'vitest';
import { countsTowardQuarantine } from '../../../../src/app/moderation/established.ts';

const NOW = Date.parse('2026-12-02T12:00:00.000Z');
const HOUR_MS = 60 * 60 * 1000;
const facts = (ageHours: number | undefined, account = 'acct-reader') => ({
  account,
  accountItem:
    ageHours === undefined
      ? undefined
      : { PK: 'ACCOUNT#acct-reader', SK: 'META', created_at: new Date(NOW - ageHours * HOUR_MS).toISOString() },
  author: 'acct-author',
  now: NOW,
  newAccountHours: 24,
});

describe('whose flag counts toward a hold', () => {
  it('an account exactly LOREBOOK_NEW_ACCOUNT_HOURS old counts; one a little younger does not', () => {
    expect(countsTowardQuarantine(facts(24))).toBe(true);
    expect(countsTowardQuarantine(facts(23.99))).toBe(false);
  });

  it('an account with no item shows no age and does not count', () => {
    expect(countsTowardQuarantine(facts(undefined))).toBe(false);
  });

  it("the story's author never counts, however old", () => {
    expect(countsTowardQuarantine(facts(1000, 'acct-author'))).toBe(false);
  });

  it('a banned account never counts, however old', () => {
    const old = facts(1000);
    const banned = { ...old.accountItem, banned: { reason: 'Spam.', since: '2026-12-01T00:00:00.000Z' } } as typeof old.accountItem;
    expect(countsTowardQuarantine({ ...old, accountItem: banned })).toBe(false);
  });
});
