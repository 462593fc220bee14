// One run of the search snapshot job in a process of its own (snapshot-job-process.ts), for
// `npm start`'s schedule. A process that dies (killed, out of memory) fails only that run: the
// pointer has not moved (design.md#search), and the next interval starts again from it.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SnapshotJobReport } from '../app/search/search-snapshot-job.ts';
import type { Config } from '../config.ts';
import type { SnapshotJobAnswer, SnapshotJobRequest } from './snapshot-job-process.ts';

const JOB_PROCESS = fileURLToPath(new URL('./snapshot-job-process.ts', import.meta.url));

export interface JobProcessRun {
  /** The process once started: where a test kills it. */
  onStart?(child: ChildProcess): void;
}

/** Resolves with the job's report once the process has sent it and ended; rejects when it dies first. */
export function runSnapshotJobInProcess(
  config: Config,
  endpoint: string | undefined,
  run: JobProcessRun = {},
): Promise<SnapshotJobReport | null> {
  return new Promise((resolve, reject) => {
    // No flags of the server's own (a bench's --import probe), its environment as it is; structured
    // clone carries the config as a worker's data did.
    const child = fork(JOB_PROCESS, { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer: SnapshotJobAnswer | undefined;
    child.once('message', (message: SnapshotJobAnswer) => (answer = message));
    child.once('error', reject);
    // 'close', not 'exit': by then every message the process sent has been read.
    child.once('close', (code, signal) => {
      if (answer !== undefined && 'error' in answer) reject(new Error(answer.error));
      else if (answer !== undefined && code === 0) resolve(answer.report);
      else reject(new Error(`the snapshot job's process ended (${signal ?? `code ${code}`}) before its report`));
    });
    child.send({ config, endpoint } satisfies SnapshotJobRequest);
    run.onStart?.(child);
  });
}
