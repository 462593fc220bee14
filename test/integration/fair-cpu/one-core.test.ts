// On a one-core machine the offload workers still keep one free for light jobs
// (docs/design.md#fair-cpu): the default is one worker per core and at least two, so a render that
// comes while a heavy scan runs shares the core with it instead of waiting it out. Through the OS:
// a process held to one core by `taskset` (Linux), where os.availableParallelism() answers 1, runs
// the real workers with their defaults (test/helpers/one-core-offload-child.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, '../../helpers/one-core-offload-child.ts');
const TASKSET = '/usr/bin/taskset';

describe.skipIf(!existsSync(TASKSET))('offload workers on one core', () => {
  it('default to two, and a light job sent while a heavy one holds a worker answers first', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(TASKSET, ['-c', '0', process.execPath, CHILD], { timeout: 50_000 });
    expect(JSON.parse(stdout)).toEqual({ workers: 2, order: ['light', 'heavy'] });
  });
});
