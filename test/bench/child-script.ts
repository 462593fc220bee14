// Runs one of the bench's own commands (a script of test/bench) as a child process with a time
// bound, for `npm run bench`: the child's heap and module graph stay its own, and a section that
// overruns is stopped and reported instead of holding up the whole run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ChildOutcome {
  ok: boolean;
  stdout: string;
  /** Why it did not finish (the time bound, or its exit and last words), when it did not. */
  failure?: string;
}

export function runBenchScript(
  script: string,
  args: readonly string[],
  options: { timeoutMs: number; env?: Record<string, string>; nodeOptions?: readonly string[]; log(line: string): void },
): Promise<ChildOutcome> {
  const file = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), file, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so the time bound also stops what it started (the search bench runs
      // each engine in a grandchild).
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      // Its progress lines go to the bench's log as they come; only the tail is kept for a failure.
      for (const line of text.split('\n')) if (line.trim() !== '') options.log(`  ${line.trim()}`);
      stderr = (stderr + text).slice(-2000);
    });
    const stopGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    // A detached group does not get the terminal's Ctrl-C: it goes when the bench goes.
    process.once('exit', stopGroup);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, options.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.off('exit', stopGroup);
      if (code === 0) resolve({ ok: true, stdout });
      else
        resolve({
          ok: false,
          stdout,
          failure: timedOut
            ? `stopped after its time bound of ${Math.round(options.timeoutMs / 1000)} s`
            : `exited ${code ?? signal}: ${stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`,
        });
    });
  });
}
