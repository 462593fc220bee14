// Starts Amazon's DynamoDB Local (the embedded default store, docs/design.md#runtime) as a child JVM:
// bound to 127.0.0.1 through the loopback launcher, telemetry off, small-JVM flags, in memory
// unless a data dir is given. Resolves once a ListTables succeeds.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter, resolve as resolvePath } from 'node:path';
import { DynamoDbLocalStartError, JavaUnavailableError } from './errors.ts';
import { findFreePort } from './free-port.ts';
import { locateDynamoDbLocalJar } from './jar-location.ts';
import { checkJava, resolveJavaBinary } from './java-runtime.ts';
import { buildJvmArgs } from './jvm-args.ts';
import { prepareLoopbackRunner } from './loopback-runner.ts';
import { createOutputTail, type OutputTail } from './output-tail.ts';
import { terminate } from './process-exit.ts';
import { waitUntilReady } from './readiness.ts';

export interface StartDynamoDbLocalOptions {
  /** TCP port; a free one on 127.0.0.1 when omitted. */
  port?: number;
  /** Folder for the database files (created if missing); in memory when omitted. */
  dataDir?: string;
  /** One-line progress messages. */
  log?: (line: string) => void;
  /** The java binary; defaults to env JAVA, then `java` on PATH. */
  java?: string;
  /** Where the compiled loopback launcher is cached; defaults to <tmpdir>/lorebook-dynamodb-local. */
  cacheDir?: string;
  /** Readiness bound. */
  readyTimeoutMs?: number;
}

export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  pid: number;
  /** '127.0.0.1' normally; '0.0.0.0' only when the loopback launcher could not be built. */
  listenHost: '127.0.0.1' | '0.0.0.0';
  /** Stops the JVM (SIGTERM, then SIGKILL after a grace period); resolves once it has exited. */
  stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 30_000;
const PORT_ATTEMPTS = 3;
const ADDRESS_IN_USE = /Address already in use|Failed to bind|BindException/i;

export async function startDynamoDbLocal(options: StartDynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const log = options.log ?? (() => {});
  const java = resolveJavaBinary(options.java);
  const startedAt = Date.now();
  const javaMajor = await checkJava(java);
  const jar = locateDynamoDbLocalJar();
  const dataDir = options.dataDir === undefined ? undefined : resolvePath(options.dataDir);
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });

  const runner = await prepareLoopbackRunner(java, jar, options.cacheDir);
  if (runner.ok && runner.compiled) log(`dynamodb-local: compiled the 127.0.0.1 launcher in ${Date.now() - startedAt} ms`);
  if (!runner.ok) {
    log(`dynamodb-local: WARNING listening on ALL interfaces, the 127.0.0.1 launcher is unavailable: ${runner.reason}`);
  }
  const loopbackClassDir = runner.ok ? runner.classDir : undefined;

  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await findFreePort());
    const args = buildJvmArgs({ jar, port, dataDir, loopbackClassDir, pathSeparator: delimiter });
    const child = spawnJvm(java, args);
    const tail = createOutputTail();
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => tail.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => tail.push(chunk));
    const spawnFailure: { error?: Error } = {};
    child.once('error', (error) => (spawnFailure.error = error));

    const endpoint = `http://127.0.0.1:${port}`;
    const notReady = await waitUntilReady(endpoint, {
      timeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      giveUp: () => describeEarlyExit(child, spawnFailure.error),
    });
    if (notReady === undefined) {
      const pid = child.pid!;
      log(
        `dynamodb-local: started on ${endpoint} in ${Date.now() - startedAt} ms ` +
          `(pid ${pid}, java ${javaMajor}, ${dataDir === undefined ? 'in memory' : `data dir ${dataDir}`}` +
          `${loopbackClassDir === undefined ? ', ALL interfaces' : ''})`,
      );
      let stopping: Promise<void> | undefined;
      return {
        endpoint,
        port,
        pid,
        listenHost: loopbackClassDir === undefined ? '0.0.0.0' : '127.0.0.1',
        stop() {
          stopping ??= terminate(child).then(() => log(`dynamodb-local: stopped pid ${pid}`));
          return stopping;
        },
      };
    }

    await terminate(child);
    const failure = spawnFailure.error;
    if (failure !== undefined && (failure as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new JavaUnavailableError(java, 'Java was not found', { cause: failure });
    }
    const retryable = options.port === undefined && attempt < PORT_ATTEMPTS && portTaken(tail);
    if (!retryable) {
      throw new DynamoDbLocalStartError(`DynamoDB Local did not start on port ${port}: ${notReady}.`, tail.lines(), {
        cause: failure,
      });
    }
    log(`dynamodb-local: port ${port} was taken meanwhile, trying another`);
  }
}

function spawnJvm(java: string, args: string[]): ChildProcess {
  return spawn(java, args, {
    // stdin stays an open pipe: the launcher exits when it closes (this process died).
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  });
}

function describeEarlyExit(child: ChildProcess, failure: Error | undefined): string | undefined {
  if (failure !== undefined) return `could not spawn java (${failure.message})`;
  if (child.exitCode !== null) return `the JVM exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `the JVM was killed by ${child.signalCode}`;
  return undefined;
}

function portTaken(tail: OutputTail): boolean {
  return tail.lines().some((line) => ADDRESS_IN_USE.test(line));
}
