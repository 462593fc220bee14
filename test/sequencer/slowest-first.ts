// The order test files start in: a project's files one after another, the slowest first, so the
// run does not end on one long file started late. vitest orders by its own cache of durations,
// which a clean clone (CI) does not have, and falls back to file size, which says little here (a
// 2 KB test that deletes a 100-story account runs minutes). test/sequencer/file-durations.json is
// that cache, committed: each file's seconds in the last full run, written by `npm run test:durations`.
//
// Projects one after another, not interleaved: a worker that finishes a file is kept for the next
// only when the next queued file is of the same project (vitest's pool); otherwise it is stopped
// and a fresh one imports everything again. Interleaved, a full run started 163 workers for 353 files.
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

/**
 * Slowest first, then each project's files together, the projects in the order of their slowest
 * file: the longest file of the run still starts first. Stable within a project.
 */
export function projectsSlowestFirst<T>(
  files: readonly T[],
  pathOf: (file: T) => string,
  projectOf: (file: T) => string,
  durations: FileDurations,
): T[] {
  const ordered = slowestFirst(files, pathOf, durations);
  const rank = new Map<string, number>();
  for (const file of ordered) if (!rank.has(projectOf(file))) rank.set(projectOf(file), rank.size);
  return ordered
    .map((file, index) => ({ file, index, project: rank.get(projectOf(file)) ?? 0 }))
    .sort((a, b) => a.project - b.project || a.index - b.index)
    .map(({ file }) => file);
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return projectsSlowestFirst(
      await super.sort(files),
      (spec) => relative(REPO, spec.moduleId),
      (spec) => spec.project.name,
      readFileDurations(),
    );
  }
}
