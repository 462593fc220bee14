// Compiles loopback-server-runner.java (a launcher that binds DynamoDB Local to 127.0.0.1) once
// per jar version and launcher source, and caches the class. Compiling needs no JDK on PATH:
// `java -m jdk.compiler/...` uses the compiler module of the same runtime, which Debian's
// openjdk-17-jre-headless ships too. If compiling fails anyway (a jlink'd runtime without
// jdk.compiler, a changed jar), the caller falls back to the stock jar on every interface.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoDbLocalJar } from './jar-location.ts';

export const LOOPBACK_RUNNER_CLASS = 'LoopbackServerRunner';
const SOURCE_PATH = fileURLToPath(new URL('./loopback-server-runner.java', import.meta.url));

export function defaultCacheDir(): string {
  return join(tmpdir(), 'lorebook-dynamodb-local');
}

export type LoopbackRunner = { ok: true; classDir: string; compiled: boolean } | { ok: false; reason: string };

/** Returns the folder holding LoopbackServerRunner.class, compiling it on a cache miss. */
export async function prepareLoopbackRunner(
  java: string,
  jar: DynamoDbLocalJar,
  cacheDir: string = defaultCacheDir(),
): Promise<LoopbackRunner> {
  let source: string;
  try {
    source = readFileSync(SOURCE_PATH, 'utf8');
  } catch (error) {
    return { ok: false, reason: `launcher source missing (${String(error)})` };
  }
  const key = createHash('sha256').update(jar.version).update('\0').update(source).digest('hex');
  const classDir = join(cacheDir, key.slice(0, 16));
  if (existsSync(join(classDir, `${LOOPBACK_RUNNER_CLASS}.class`))) {
    return { ok: true, classDir, compiled: false };
  }

  // Compile into a private folder, then rename: parallel starts never see a half-written class.
  const workDir = `${classDir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(workDir, { recursive: true });
  try {
    await compile(java, ['-cp', jar.jarPath, '--release', '17', '-nowarn', '-d', workDir, SOURCE_PATH]);
    try {
      renameSync(workDir, classDir);
    } catch (error) {
      // Another process won the race; its class is identical.
      if (!existsSync(join(classDir, `${LOOPBACK_RUNNER_CLASS}.class`))) throw error;
    }
    return { ok: true, classDir, compiled: true };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function compile(java: string, javacArgs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(java, ['-m', 'jdk.compiler/com.sun.tools.javac.Main', ...javacArgs], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) resolve();
      else reject(new Error(`compiling the loopback launcher failed: ${`${stderr}${stdout}`.trim() || error.message}`));
    });
  });
}
