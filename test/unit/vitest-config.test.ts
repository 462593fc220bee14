// The test runner's projects (vitest.config.ts): test files share a worker's modules, except the
// ones that measure their own process, which a shared worker would skew.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEASURE_THE_PROCESS } from '../../vitest.config.ts';

const REPO = new URL('../../', import.meta.url).pathname;
/** What a test calls when it measures its own process: heap, RSS or event-loop delay. */
const MEASURES_ITS_PROCESS = /\bmemoryUsage\b|\bmonitorEventLoopDelay\b|\bgetHeapStatistics\b/;

/** Every test file under `dir`, as a path from the repository's root. */
const testFilesUnder = (dir: string): string[] =>
  readdirSync(`${REPO}${dir}`, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`);

const measuring = (files: string[]): string[] => files.filter((file) => MEASURES_ITS_PROCESS.test(readFileSync(`${REPO}${file}`, 'utf8')));

describe('the test projects', () => {
  it('every test that measures its own process runs in a fresh worker, and only those', () => {
    const found = ['test/integration', 'test/e2e', 'test/crash', 'test/unit'].flatMap(testFilesUnder);
    expect(
      measuring(found)
        .filter((file) => file !== 'test/unit/vitest-config.test.ts')
        .sort(),
    ).toEqual([...MEASURE_THE_PROCESS].sort());
  });

  it('finds a measuring test by what it calls (the check is not vacuous)', () => {
    expect(MEASURES_ITS_PROCESS.test('const before = process.memoryUsage().rss;')).toBe(true);
    expect(MEASURES_ITS_PROCESS.test('const delay = monitorEventLoopDelay({ resolution: 10 });')).toBe(true);
    expect(MEASURES_ITS_PROCESS.test('const items = await server.app.state();')).toBe(false);
  });
});
