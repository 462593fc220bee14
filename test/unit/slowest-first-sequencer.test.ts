// The order test files start in (test/sequencer/slowest-first.ts): a project's files together,
// the slowest first, so a full run does not end on one long file started late and a worker is
// kept from one file to the next.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectsSlowestFirst, readFileDurations, slowestFirst } from '../sequencer/slowest-first.ts';

const REPO = new URL('../../', import.meta.url).pathname;
const same = (file: string): string => file;

describe('slowest first', () => {
  it('starts the files with the longest last duration first, across projects', () => {
    const durations = { 'test/unit/a.test.ts': 2, 'test/e2e/b.test.ts': 300, 'test/integration/c.test.ts': 40 };
    expect(slowestFirst(['test/unit/a.test.ts', 'test/integration/c.test.ts', 'test/e2e/b.test.ts'], same, durations)).toEqual([
      'test/e2e/b.test.ts',
      'test/integration/c.test.ts',
      'test/unit/a.test.ts',
    ]);
  });

  it('puts files with no duration yet after the known ones, in the order vitest gave them', () => {
    const durations = { 'test/unit/known.test.ts': 0.1 };
    expect(slowestFirst(['new-big.test.ts', 'test/unit/known.test.ts', 'new-small.test.ts'], same, durations)).toEqual([
      'test/unit/known.test.ts',
      'new-big.test.ts',
      'new-small.test.ts',
    ]);
  });

  it('keeps the given order between files of equal duration', () => {
    expect(slowestFirst(['x', 'y', 'z'], same, { x: 5, y: 5, z: 5 })).toEqual(['x', 'y', 'z']);
  });

  it("groups each project's files, slowest first, the projects in the order of their slowest file", () => {
    const durations = {
      'test/unit/a.test.ts': 54,
      'test/e2e/b.test.ts': 70,
      'test/integration/c.test.ts': 111,
      'test/unit/d.test.ts': 2,
      'test/e2e/e.test.ts': 80,
      'test/integration/f.test.ts': 1,
    };
    const project = (file: string): string => file.split('/')[1] as string;
    expect(projectsSlowestFirst(Object.keys(durations), same, project, durations)).toEqual([
      'test/integration/c.test.ts',
      'test/integration/f.test.ts',
      'test/e2e/e.test.ts',
      'test/e2e/b.test.ts',
      'test/unit/a.test.ts',
      'test/unit/d.test.ts',
    ]);
  });

  it('the committed durations name test files that exist (regenerate with npm run test:durations after a move)', () => {
    const stale = Object.keys(readFileDurations()).filter((file) => !existsSync(`${REPO}${file}`));
    expect(stale).toEqual([]);
  });
});
