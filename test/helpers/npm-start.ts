// `npm start` as a child process for end-to-end tests, pointed at the suite's table on the run's
// DynamoDB Local (LOREBOOK_DDB_ENDPOINT, so it starts no JVM of its own), on a free port. Started
// in its own process group and stopped with SIGINT, as Ctrl-C would; SIGKILL only if it hangs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStoreClient } from '../../src/store/client.ts';
import { withoutLorebookSettings } from './command-env.ts';
import { turnStreamOn } from './test-table.ts';

export interface NpmStart {
  baseUrl: string;
  /** The process group `npm start` runs in (npm and the server under it). */
  processGroup: number;
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export async function startNpmStart(options: {
  endpoint: string;
  table: string;
  env?: Record<string, string>;
  readyMs?: number;
  /** A command `npm start` runs under, its arguments before `npm` (the fairness bench's `taskset -c 0`: one core). */
  under?: readonly string[];
}): Promise<NpmStart> {
  // npm start's table-stream poller reads the table's stream (test-table.ts keeps it off by default).
  const client = createStoreClient({ endpoint: options.endpoint });
  try {
    await turnStreamOn(client, options.table);
  } finally {
    client.destroy();
  }
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), 'lorebook-npm-start-'));
  const env = withoutLorebookSettings();
  Object.assign(env, {
    PORT: String(port),
    LOREBOOK_DDB_ENDPOINT: options.endpoint,
    LOREBOOK_TABLE: options.table,
    LOREBOOK_DATA_DIR: join(scratch, 'data'),
    // Search snapshots in the scratch directory too, never in the working tree's .data.
    LOREBOOK_SEARCH_DIR: join(scratch, 'search'),
    LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000',
    // Suites publish many stories from accounts minted a second ago and count their reports: they
    // run with every account established and no per-day limit. The suites that test new accounts
    // set these themselves (the limits themselves are tested app-level, design.md#new-accounts).
    LOREBOOK_NEW_ACCOUNT_HOURS: '0',
    LOREBOOK_STORIES_PER_DAY: '100000',
    LOREBOOK_NEW_ACCOUNT_STORIES_PER_DAY: '100000',
    // One narrative under many titles is a spam wave (app-fixture.ts): on where a test says so.
    LOREBOOK_DUPLICATE_WINDOW_HOURS: '0',
    ...options.env,
  });
  const [command = 'npm', ...args] = [...(options.under ?? []), 'npm', 'start'];
  const child: ChildProcess = spawn(command, args, { cwd: process.cwd(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGINT');
    const done = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000))]);
    if (!done && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start was not ready within ${options.readyMs ?? 90_000} ms:\n${output}`)),
        options.readyMs ?? 90_000,
      );
      child.stdout?.on('data', () => {
        if (output.includes('Ctrl-C stops')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, processGroup: child.pid as number, output: () => output, stop };
}
