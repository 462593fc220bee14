// npm start's background threads yield the cores (src/offload/thread-priority.ts): libuv's pool
// threads and a thread that lowers itself run at the niceness asked for (a job's process: every thread
// of it), and the main thread keeps its own. Each case runs in a Node process of its own, so this
// test process's threads stay as they are.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  PLATFORM_THREAD_NICENESS,
  SNAPSHOT_DECODE_NICENESS,
  SNAPSHOT_JOB_NICENESS,
  THREAD_POOL_NICENESS,
} from '../../../src/offload/thread-priority.ts';

const MODULE = new URL('../../../src/offload/thread-priority.ts', import.meta.url).href;

/** Runs the script in a fresh process and answers each of its threads as "name niceness". */
function threadsAfter(script: string): string[] {
  const report = `
    import { readdirSync, readFileSync } from 'node:fs';
    const threads = readdirSync('/proc/self/task').map((task) => {
      const stat = readFileSync('/proc/self/task/' + task + '/stat', 'utf8');
      const name = readFileSync('/proc/self/task/' + task + '/comm', 'utf8').trim();
      return (task === String(process.pid) ? 'main' : name) + ' ' + stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16];
    });
    console.log(JSON.stringify(threads));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', `${script}\n${report}`], { encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

describe.runIf(process.platform === 'linux')("npm start's background threads yield the cores to the serving thread", () => {
  it("every libuv pool thread runs at the pool's niceness, the main thread at its own", () => {
    const threads = threadsAfter(`
      import { lowerThreadPoolPriority } from '${MODULE}';
      const lowered = await lowerThreadPoolPriority();
      if (lowered === 0) throw new Error('no pool thread lowered');`);
    const pool = threads.filter((thread) => thread.startsWith('libuv-worker '));
    expect(pool.length).toBeGreaterThan(0);
    expect(new Set(pool)).toEqual(new Set([`libuv-worker ${THREAD_POOL_NICENESS}`]));
    expect(threads).toContain('main 0');
  });

  it("V8's platform threads run at their niceness; the main thread and a worker started after keep the default", () => {
    const threads = threadsAfter(`
      import { Worker } from 'node:worker_threads';
      import { lowerPlatformThreadsPriority } from '${MODULE}';
      const lowered = lowerPlatformThreadsPriority();
      if (lowered === 0) throw new Error('no platform thread lowered');
      // The worker names itself, so the report tells it from the platform threads.
      const worker = new Worker(\`import { writeFileSync } from 'node:fs';
        import { parentPort } from 'node:worker_threads';
        writeFileSync('/proc/thread-self/comm', 'the-worker');
        parentPort.postMessage('named');
        setTimeout(() => {}, 60000);\`, { eval: true });
      await new Promise((resolve) => worker.once('message', resolve));
      worker.unref();`);
    const platform = threads.filter((thread) => thread.startsWith('node '));
    expect(platform.length).toBeGreaterThan(0);
    expect(new Set(platform)).toEqual(new Set([`node ${PLATFORM_THREAD_NICENESS}`]));
    expect(threads).toContain('the-worker 0');
    expect(threads).toContain('main 0');
  });

  it('a thread that lowers itself runs at that niceness; the thread that started it keeps its own', () => {
    const threads = threadsAfter(`
      import { Worker } from 'node:worker_threads';
      const worker = new Worker(\`import { parentPort } from 'node:worker_threads';
        import { lowerThisThreadsPriority } from '${MODULE}';
        lowerThisThreadsPriority(${SNAPSHOT_DECODE_NICENESS});
        parentPort.postMessage('lowered');
        setTimeout(() => {}, 60000);\`, { eval: true });
      await new Promise((resolve) => worker.once('message', resolve));
      worker.unref();`);
    expect(threads.filter((thread) => thread.endsWith(` ${SNAPSHOT_DECODE_NICENESS}`))).toHaveLength(1);
    expect(threads).toContain('main 0');
  });

  it("a job's process that lowers itself runs every thread at that niceness, the main one and the pool started after too", () => {
    const threads = threadsAfter(`
      import { readFile } from 'node:fs/promises';
      import { lowerThisProcessPriority } from '${MODULE}';
      lowerThisProcessPriority(${SNAPSHOT_JOB_NICENESS});
      // libuv's pool starts at the first asynchronous file read, after the process lowered itself.
      await readFile('/proc/self/comm');`);
    expect(threads.filter((thread) => thread.startsWith('libuv-worker ')).length).toBeGreaterThan(0);
    expect(new Set(threads.map((thread) => thread.split(' ')[1]))).toEqual(new Set([String(SNAPSHOT_JOB_NICENESS)]));
    expect(threads).toContain(`main ${SNAPSHOT_JOB_NICENESS}`);
  });
});
