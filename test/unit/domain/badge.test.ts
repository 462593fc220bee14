// The badge model: what a story or author badge says and its colour, from counts and a tier only.
import { describe, expect, it } from 'vitest';
import { authorBadge, NOT_FOUND_BADGE, storyBadge, TIER_COLORS, UNSCANNED_COLOR } from '../../../src/domain/badge.ts';
import { TIERS } from '../../../src/domain/capability/categories.ts';

describe('the story badge', () => {
  it.each([
    ['T0', 'brightgreen'],
    ['T1', 'green'],
    ['T2', 'yellow'],
    ['T3', 'orange'],
    ['T4', 'red'],
  ] as const)('a %s story is coloured %s and names its tier next to the count', (tier, color) => {
    expect(storyBadge({ worked: 3, tier })).toEqual({ label: 'reproduced', message: `3× · ${tier}`, color });
  });

  it('every tier has a colour of its own, none of them the grey of an unscanned or missing story', () => {
    const colors = TIERS.map((tier) => TIER_COLORS[tier]);
    expect(new Set(colors).size).toBe(TIERS.length);
    expect(colors).not.toContain(UNSCANNED_COLOR);
  });

  it('a story never scanned is grey and claims no tier', () => {
    expect(storyBadge({ worked: 0, tier: null })).toEqual({ label: 'reproduced', message: '0×', color: 'lightgrey' });
  });

  it.each(['T0', 'T2', 'T3'] as const)('a %s story changed since publish says so after its tier, in the T4 red', (tier) => {
    expect(storyBadge({ worked: 2, tier, changed: true })).toEqual({
      label: 'reproduced',
      message: `2× · ${tier} · changed since publish`,
      color: TIER_COLORS.T4,
    });
    expect(storyBadge({ worked: 2, tier, changed: false })).toEqual(storyBadge({ worked: 2, tier }));
  });

  it('N is the worked count given, unrounded', () => {
    expect(storyBadge({ worked: 1234, tier: 'T2' }).message).toBe('1234× · T2');
  });
});

describe('the author badge', () => {
  it('says "worked for N people", one person in the singular', () => {
    expect(authorBadge(0)).toEqual({ label: 'worked for', message: '0 people', color: 'lightgrey' });
    expect(authorBadge(1)).toEqual({ label: 'worked for', message: '1 person', color: 'blue' });
    expect(authorBadge(7)).toEqual({ label: 'worked for', message: '7 people', color: 'blue' });
  });
});

describe('the not-found badge', () => {
  it('is neutral grey and names nothing of what was asked for', () => {
    expect(NOT_FOUND_BADGE).toEqual({ label: 'lorebook', message: 'not found', color: 'lightgrey' });
  });
});
