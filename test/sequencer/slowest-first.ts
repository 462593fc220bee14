// The order test files start in: the slowest first, across projects, so the run does not end on
// one long file started late. vitest orders by its own cache of durations, which a clean clone (CI)
// does not have, and falls back to file size, which says little here (a 2 KB test that deletes a
// 100-story account runs minutes). test/sequencer/file-durations.json is that cache, committed:
// each file's seconds in the last full run, written by `npm run test:durations`.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATIONS_FILE = new URL('./file-durations.json', import.meta.url);
const REPO = new URL('../../', import.meta.url).pathname;

export type FileDurations = Record<string, number>;

export function readFileDurations(): FileDurations {
  return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as FileDurations;
}

/**
 * Known files by their last duration, longest first; files with none (new ones) after them, in
 * the order vitest gave (by size). Stable: equal durations keep vitest's order.
 */
export function slowestFirst<T>(files: readonly T[], pathOf: (file: T) => string, durations: FileDurations): T[] {
  const known = (file: T): number => durations[pathOf(file)] ?? -1;
  return files
    .map((file, index) => ({ file, index, seconds: known(file) }))
    .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
    .map(({ file }) => file);
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return slowestFirst(await super.sort(files), (spec) => relative(REPO, spec.moduleId), readFileDurations());
  }
}
