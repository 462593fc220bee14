// A background job's process (src/cli/job-process.ts), forked for real: it answers with its
// input's result and exits; a process that ends without an answer, fails or is killed rejects the
// run; and one whose parent is gone ends by itself instead of lingering.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runJobProcess } from '../../../src/cli/job-process.ts';

const CHILD = new URL('../../helpers/job-process-child.ts', import.meta.url);

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe('a job process', () => {
  it('answers the result of its input and exits with 0', async () => {
    let started: ChildProcess | undefined;
    const answer = await runJobProcess(CHILD, { answer: 21 }, { onStart: (child) => (started = child) });
    expect(answer).toEqual({ doubled: 42 });
    expect(started?.exitCode).toBe(0);
  });

  it("starts without the forking process's runtime flags (a test runner's preloads here, a server's --inspect or --import)", async () => {
    expect(process.execArgv.length).toBeGreaterThan(0);
    expect(await runJobProcess(CHILD, { flags: true })).toEqual([]);
  });

  it('rejects the run when the process ends without an answer', async () => {
    await expect(runJobProcess(CHILD, { silent: true })).rejects.toThrow(/ended \(code 0\) before its answer/);
  });

  it("rejects the run with the job's own message when the job throws", async () => {
    let started: ChildProcess | undefined;
    await expect(
      runJobProcess(CHILD, { throw: 'the snapshot store refused the write' }, { onStart: (child) => (started = child) }),
    ).rejects.toThrow(/^the snapshot store refused the write$/);
    expect(started?.exitCode).toBe(1);
  });

  it('rejects the run when the process is killed', async () => {
    await expect(runJobProcess(CHILD, { hold: true }, { onStart: (child) => void child.kill('SIGKILL') })).rejects.toThrow(
      /ended \(SIGKILL\) before its answer/,
    );
  });

  it('ends by itself with 1 when the process that forked it is gone (its channel closed)', async () => {
    let started: ChildProcess | undefined;
    let holding: Promise<unknown> = Promise.resolve();
    const run = runJobProcess(
      CHILD,
      { hold: true },
      {
        onStart: (child) => {
          started = child;
          holding = new Promise((resolve) => child.once('message', resolve));
        },
      },
    );
    const refused = expect(run).rejects.toThrow(/ended \(code 1\) before its answer/);
    // Once it holds its input, the parent's end of the channel closes, as at a server's exit.
    await holding;
    started?.disconnect();
    expect(await exited(started as ChildProcess)).toBe(1);
    await refused;
  });
});
