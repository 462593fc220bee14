// A process of its own for one run of a background job under `npm start` (the search snapshot
// job): forked with its input, it posts its answer and exits. A process, not a worker thread: a
// thread's isolate, its modules' compile and a whole index freed at its end stayed in the server's
// heap arenas (40-55 MiB more after each run), where a process's exit gives all of it back
// (BENCHMARKS.md §11). Messages are structured clones, as a worker thread's are.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface JobProcessRun {
  /** The process once started: where a test kills it. */
  onStart?(child: ChildProcess): void;
}

/**
 * Runs `module` with `input`; resolves with its answer when it exits normally after posting one,
 * rejects when it fails to start, dies, or ends with nothing posted.
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
    let answer: { value: unknown } | undefined;
    let failure: Error | undefined;
    child.on('message', (message: unknown) => {
      answer = { value: message };
    });
    child.on('error', (error) => (failure ??= error));
    child.on('exit', (code, signal) => {
      if (failure !== undefined) reject(failure);
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

/** The job's half: its input from the process that forked it. The job ends when that process does. */
export function jobProcessInput<T>(): Promise<T> {
  if (process.send === undefined) throw new Error('a job process is forked by `npm start`, with an IPC channel');
  // The server gone (killed, stopped): a job killed before its last write changed nothing.
  process.once('disconnect', () => process.exit(1));
  return new Promise((resolve) => process.once('message', (message) => resolve(message as T)));
}

/** Posts the job's answer and ends the process (its open sockets would keep it alive). */
export function answerJobProcess(answer: unknown): Promise<never> {
  return new Promise(() => {
    process.send?.(answer, () => process.exit(0));
  });
}
