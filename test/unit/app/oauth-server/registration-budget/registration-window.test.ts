// The registration budget's window, as a pure plan: which clock hour a registration counts in,
// how long the refusal tells the caller to wait, and how long the window item is kept.
import { describe, expect, it } from 'vitest';
import { registrationBudgetSpent, registrationWindow } from '../../../../../src/app/oauth-server/registration-budget.ts';
import { DEFAULT_OAUTH_SERVER_SETTINGS } from '../../../../../src/auth/oauth/oauth-settings.ts';

const HOUR_MS = 60 * 60 * 1000;
const at = Date.parse('2026-12-01T10:15:00.000Z');
const hourStart = Date.parse('2026-12-01T10:00:00.000Z');
const settings = { ...DEFAULT_OAUTH_SERVER_SETTINGS, registrationsPerHour: 7 };
const ADDRESS = '192.0.2.1';

describe('the registration budget window', () => {
  it('counts a registration in its clock hour and resets at the next one', () => {
    const window = registrationWindow(settings, at, ADDRESS);
    expect(window.resetMs).toBe(45 * 60 * 1000);
    expect(window.limit).toBe(7);
    expect(registrationWindow(settings, hourStart + HOUR_MS - 1, ADDRESS).key).toEqual(window.key);
    expect(registrationWindow(settings, hourStart + HOUR_MS, ADDRESS).key).not.toEqual(window.key);
  });

  it('keeps the window item past the end of its hour, so a late registration never finds it gone', () => {
    const expiresAt = registrationWindow(settings, at, ADDRESS).count.Update.ExpressionAttributeValues?.[':expires_at'] as number;
    expect(expiresAt).toBeGreaterThan((hourStart + HOUR_MS) / 1000);
    expect(expiresAt).toBeLessThan((hourStart + 2 * HOUR_MS) / 1000);
  });

  it('is one window per address: another address counts in a window of its own', () => {
    expect(registrationWindow(settings, at, '192.0.2.2').key).not.toEqual(registrationWindow(settings, at, ADDRESS).key);
  });

  it('refuses past the budget telling the caller to come back when the hour ends, and the window length', () => {
    const refusal = registrationBudgetSpent(registrationWindow(settings, at, ADDRESS));
    expect(refusal.code).toBe('rate_limited');
    expect(refusal.retryAfterMs).toBe(45 * 60 * 1000);
    expect(refusal.details).toEqual({ reason: 'registration_budget', limit: 7, window_seconds: 3600 });
  });
});
