// Stopping a child by its PID and knowing when it is really gone.
import type { ChildProcess } from 'node:child_process';

/** Resolves when the child has exited (immediately if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM, then SIGKILL if the process outlives `graceMs`; resolves once it has exited. */
export async function terminate(child: ChildProcess, graceMs = 5_000): Promise<void> {
  const gone = exited(child);
  const pid = child.pid;
  // @NOTE never signal a PID whose process we already saw exit: the OS may have reused it.
  if (pid === undefined) return; // never spawned (e.g. ENOENT): nothing to stop
  if (child.exitCode !== null || child.signalCode !== null) return gone;
  signal(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  const outcome = await Promise.race([gone.then(() => 'exited' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    signal(pid, 'SIGKILL');
    await gone;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // ESRCH: already gone, which is what we want.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
