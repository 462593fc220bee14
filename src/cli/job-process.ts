// A process of its own for one run of a background job under `npm start` (the search snapshot
// job): forked with its input, it posts its answer (or its failure) and exits. A process, not a
// worker thread: a thread's isolate, its modules' compile and a whole index freed at its end stayed
// in the server's heap arenas (40-55 MiB more after each run), where a process's exit gives all of
// it back (BENCHMARKS.md §11). Messages are structured clones, as a worker thread's are.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface JobProcessRun {
  /** The process once started: where a test kills it. */
  onStart?(child: ChildProcess): void;
}

/** What a job's process posts: its answer, or why it failed. */
type JobAnswer = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Runs `module` (a job served by serveJobProcess) with `input`; resolves with its answer, rejects
 * with its failure's message, or when it fails to start, dies or ends with nothing posted.
 */
export function runJobProcess<T>(module: URL, input: unknown, run: JobProcessRun = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // No flags of the server's own (`--inspect` would take its port, `--import` would load its
    // preloads): the job is a plain runtime, its settings in its input.
    const child = fork(fileURLToPath(module), [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answer: JobAnswer | undefined;
    let failure: Error | undefined;
    child.on('message', (message: JobAnswer) => {
      answer = message;
    });
    child.on('error', (error) => (failure ??= error));
    child.on('exit', (code, signal) => {
      if (failure !== undefined) reject(failure);
      else if (answer?.ok === false) reject(new Error(answer.message));
      else if (code !== 0 || answer === undefined)
        reject(new Error(`the job's process ended (${signal ?? `code ${code}`}) before its answer`));
      else resolve(answer.value as T);
    });
    child.send(input as never, (error) => {
      if (error !== null) failure ??= error;
    });
    run.onStart?.(child);
  });
}

/**
 * The job's half: runs `job` on the input from the process that forked it, posts its answer (or
 * its failure's message) and ends the process, whose open sockets would otherwise keep it alive.
 * The job ends with that process too: a job killed before its last write changed nothing.
 */
export async function serveJobProcess<I>(job: (input: I) => Promise<unknown>): Promise<never> {
  if (process.send === undefined) throw new Error('a job process is forked by `npm start`, with an IPC channel');
  process.once('disconnect', () => process.exit(1));
  const input = await new Promise<I>((resolve) => process.once('message', (message) => resolve(message as I)));
  let answer: JobAnswer;
  try {
    answer = { ok: true, value: await job(input) };
  } catch (error) {
    answer = { ok: false, message: (error as Error).message ?? String(error) };
  }
  return new Promise(() => {
    process.send?.(answer, () => process.exit(answer.ok ? 0 : 1));
  });
}
