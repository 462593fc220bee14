import { describe, expect, it } from 'vitest';
import { compareScannerVersions } from '../../../../src/domain/capability/version-order.ts';

describe('scanner versions compare as numbers, part by part', () => {
  it('1.10.0 is newer than 1.9.0, 2.0.0 than 1.99.99, and a version equals itself', () => {
    expect(compareScannerVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareScannerVersions('1.9.0', '1.10.0')).toBeLessThan(0);
    expect(compareScannerVersions('2.0.0', '1.99.99')).toBeGreaterThan(0);
    expect(compareScannerVersions('1.0.1', '1.0.0')).toBeGreaterThan(0);
    expect(compareScannerVersions('1.2.3', '1.2.3')).toBe(0);
  });

  it('something that is not MAJOR.MINOR.PATCH is older than every version, and equal to another such', () => {
    for (const odd of ['', '1.0', 'v1.0.0', '1.0.0-beta', 'latest']) {
      expect(compareScannerVersions(odd, '0.0.0')).toBeLessThan(0);
      expect(compareScannerVersions('0.0.0', odd)).toBeGreaterThan(0);
      expect(compareScannerVersions(odd, 'junk')).toBe(0);
    }
  });
});
