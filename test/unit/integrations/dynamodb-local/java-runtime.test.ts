import { describe, expect, it } from 'vitest';
import { parseJavaMajor, resolveJavaBinary } from '../../../../integrations/dynamodb-local/java-runtime.ts';

describe('parseJavaMajor', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "25" 2025-09-16', 25],
    ['java version "1.8.0_392"', 8],
    ['openjdk version "21-ea" 2023-09-19', 21],
  ])('reads %s as Java %i', (output, major) => {
    expect(parseJavaMajor(output)).toBe(major);
  });

  it('answers undefined for output that names no version', () => {
    expect(parseJavaMajor('Error: could not find libjava.so')).toBeUndefined();
  });
});

describe('resolveJavaBinary', () => {
  it('prefers the option, then env JAVA, then java on PATH', () => {
    expect(resolveJavaBinary('/opt/jdk/bin/java', { JAVA: '/env/java' })).toBe('/opt/jdk/bin/java');
    expect(resolveJavaBinary(undefined, { JAVA: '/env/java' })).toBe('/env/java');
    expect(resolveJavaBinary(undefined, { JAVA: '' })).toBe('java');
    expect(resolveJavaBinary(undefined, {})).toBe('java');
  });
});
