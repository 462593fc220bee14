// Which DynamoDB a local command talks to, and who may run a JVM on the data directory.
//
// `npm start` holds the data dir's lock for its whole life and writes the endpoint of its
// DynamoDB Local to `<data dir>/../endpoint` (`.data/endpoint` by default). A short command (the
// token CLI) uses that endpoint when it answers; otherwise it takes the lock, runs its own
// DynamoDB Local on the same data dir for the duration of the command, and stops it. The lock is
// what keeps two JVMs off one data dir: DynamoDB Local does not share its files safely.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { listTablesSucceeds } from '../../integrations/dynamodb-local/readiness.ts';

/** The file `npm start` writes its DynamoDB Local endpoint to, next to the data dir. */
export const endpointFilePath = (dataDir: string): string => join(dirname(resolve(dataDir)), 'endpoint');
/** Held (O_EXCL, holds the pid) by whoever runs a DynamoDB Local on the data dir. */
export const lockFilePath = (dataDir: string): string => `${resolve(dataDir)}.lock`;

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data dir's lock, or answers undefined while a live process holds it. A lock left by
 * a process that is gone (killed, crashed) is taken over.
 */
export function tryLockDataDir(dataDir: string): DataDirLock | undefined {
  const path = lockFilePath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (holderIsAlive(path)) return undefined;
      // @NOTE a stale lock: its process is gone. Two takers racing here can both remove it, but
      // only one of them wins the O_EXCL create that follows.
      rmSync(path, { force: true });
    }
  }
  return undefined;
}

function holderIsAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8').trim());
  } catch {
    return false; // removed meanwhile
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    // Signal 0 only asks whether the process exists; it sends nothing.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Written whole (temp file + rename), so a reader never sees half an endpoint. */
export function writeEndpointFile(dataDir: string, endpoint: string): void {
  const path = endpointFilePath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.${process.pid}.tmp`, `${endpoint}\n`);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

export function removeEndpointFile(dataDir: string): void {
  rmSync(endpointFilePath(dataDir), { force: true });
}

/** The endpoint `npm start` announced, if it still answers. */
export async function runningEndpoint(dataDir: string): Promise<string | undefined> {
  let endpoint: string;
  try {
    endpoint = readFileSync(endpointFilePath(dataDir), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(endpoint)) return undefined;
  return (await listTablesSucceeds(endpoint)) ? endpoint : undefined;
}

export interface LocalStore {
  endpoint: string;
  /** true when this command started DynamoDB Local itself (the table may need creating). */
  started: boolean;
  close(): Promise<void>;
}

export interface OpenLocalStoreOptions {
  dataDir: string;
  log: (line: string) => void;
  /** How long to wait for another command's DynamoDB Local to be stopped. */
  waitMs?: number;
}

const POLL_MS = 200;

/** The running store of `npm start`, or a DynamoDB Local of our own on the same data dir. */
export async function openLocalStore(options: OpenLocalStoreOptions): Promise<LocalStore> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const running = await runningEndpoint(options.dataDir);
    if (running !== undefined) return { endpoint: running, started: false, close: async () => {} };
    const lock = tryLockDataDir(options.dataDir);
    if (lock !== undefined) {
      try {
        const ddb = await startDynamoDbLocal({ dataDir: options.dataDir, log: options.log });
        return {
          endpoint: ddb.endpoint,
          started: true,
          async close() {
            try {
              await ddb.stop();
            } finally {
              lock.release();
            }
          },
        };
      } catch (error) {
        lock.release();
        throw error;
      }
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `Another process holds ${lockFilePath(options.dataDir)} (a DynamoDB Local on ${options.dataDir} is starting or in use) and announced no endpoint. ` +
          'Wait for it, or delete the lock file if no lorebook process is running.',
      );
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

/**
 * The store a command works on: LOREBOOK_DDB_ENDPOINT's when it is set (nothing started, nothing
 * to close), otherwise the running npm start's or one of its own on the data dir.
 */
export async function openCommandStore(
  config: { ddbEndpoint: string | undefined; dataDir: string },
  log: (line: string) => void,
): Promise<LocalStore> {
  if (config.ddbEndpoint !== undefined) return { endpoint: config.ddbEndpoint, started: false, close: async () => {} };
  return openLocalStore({ dataDir: config.dataDir, log });
}
