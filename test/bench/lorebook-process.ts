// Starts server-process.ts as a child and talks to it: its base URL, its memory, its DynamoDB calls.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerStats } from './server-process.ts';

const SERVER = fileURLToPath(new URL('./server-process.ts', import.meta.url));

export interface LorebookProcess {
  baseUrl: string;
  pid: number;
  stats(options?: { gc?: boolean }): Promise<ServerStats>;
  resetRoundTrips(): Promise<void>;
  stop(): Promise<void>;
}

/** `server` is server-process.ts of this tree by default, or of another one (baseline-tree.ts: the code before a change). */
export async function startLorebookProcess(endpoint: string, tableName: string, server: string = SERVER): Promise<LorebookProcess> {
  const child: ChildProcess = fork(server, [], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, BENCH_DDB_ENDPOINT: endpoint, BENCH_TABLE: tableName },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T>(type: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type?: string }): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null): void => reject(new Error(`the bench server exited (code ${code}) before answering ${type}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { baseUrl } = await next<{ baseUrl: string }>('listening');
  return {
    baseUrl,
    pid: child.pid as number,
    async stats(options = {}) {
      const answer = next<ServerStats>('stats');
      child.send({ type: 'stats', gc: options.gc === true });
      return answer;
    },
    async resetRoundTrips() {
      const answer = next<unknown>('reset');
      child.send({ type: 'reset' });
      await answer;
    },
    async stop() {
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
