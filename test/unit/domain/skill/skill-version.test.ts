import { describe, expect, it } from 'vitest';
import { compareSkillVersions, parseSkillVersion, type SkillVersion, skillIsBehind } from '../../../../src/domain/skill/skill-version.ts';

const v = (text: string): SkillVersion => {
  const parsed = parseSkillVersion(text);
  if (parsed === undefined) throw new Error(`not a version: ${text}`);
  return parsed;
};

describe('skill versions compare like semver', () => {
  it('orders by major, then minor, then patch, numerically (1.10.0 is newer than 1.9.0)', () => {
    expect(compareSkillVersions(v('1.9.0'), v('1.10.0'))).toBeLessThan(0);
    expect(compareSkillVersions(v('2.0.0'), v('1.99.99'))).toBeGreaterThan(0);
    expect(compareSkillVersions(v('1.2.3'), v('1.2.4'))).toBeLessThan(0);
    expect(compareSkillVersions(v('1.2.3'), v('1.2.3'))).toBe(0);
  });

  it('missing parts are 0, a leading v is allowed, build metadata is ignored', () => {
    expect(compareSkillVersions(v('1'), v('1.0.0'))).toBe(0);
    expect(compareSkillVersions(v('v1.2'), v('1.2.0'))).toBe(0);
    expect(compareSkillVersions(v('1.2.0+build.7'), v('1.2.0'))).toBe(0);
  });

  it('a pre-release comes before its release', () => {
    expect(compareSkillVersions(v('1.2.0-beta'), v('1.2.0'))).toBeLessThan(0);
    expect(compareSkillVersions(v('1.2.0'), v('1.2.0-beta'))).toBeGreaterThan(0);
  });

  it('an older, garbled or oversized version is behind; the same or a newer one is not', () => {
    const served = v('1.4.0');
    expect(skillIsBehind('1.3.9', served)).toBe(true);
    expect(skillIsBehind('banana', served)).toBe(true);
    expect(skillIsBehind(`1.${'9'.repeat(80)}`, served)).toBe(true);
    expect(skillIsBehind('1.4.0', served)).toBe(false);
    expect(skillIsBehind('1.5.0', served)).toBe(false);
  });
});
