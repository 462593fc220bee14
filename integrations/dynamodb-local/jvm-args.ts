// The java command line for DynamoDB Local, as plain data (unit-tested without a JVM).
import type { DynamoDbLocalJar } from './jar-location.ts';
import { LOOPBACK_RUNNER_CLASS } from './loopback-runner.ts';

/** Small-JVM flags: DynamoDB Local starts in ~2.5 s with them instead of ~4 s. */
export const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m'] as const;

const STOCK_MAIN_CLASS = 'software.amazon.dynamodb.services.local.main.ServerRunner';

export interface JvmArgsInput {
  jar: DynamoDbLocalJar;
  port: number;
  /** Absolute data folder; undefined = in memory. */
  dataDir?: string | undefined;
  /** Folder with LoopbackServerRunner.class; undefined = the stock main class (all interfaces). */
  loopbackClassDir?: string | undefined;
  /** Path separator of the class path (':' on POSIX, ';' on Windows). */
  pathSeparator?: string;
}

export function buildJvmArgs(input: JvmArgsInput): string[] {
  const { jar, port, dataDir, loopbackClassDir, pathSeparator = ':' } = input;
  const classPath = loopbackClassDir === undefined ? jar.jarPath : `${loopbackClassDir}${pathSeparator}${jar.jarPath}`;
  const launcher =
    loopbackClassDir === undefined
      ? [STOCK_MAIN_CLASS]
      : ['-Dlorebook.ddb.host=127.0.0.1', '-Dlorebook.ddb.exitOnStdinEof=true', LOOPBACK_RUNNER_CLASS];
  return [
    ...JVM_FLAGS,
    `-Djava.library.path=${jar.libDir}`,
    '-cp',
    classPath,
    ...launcher,
    '-port',
    String(port),
    ...(dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir]),
    // One database for every access key and region, so a client with other credentials (the
    // AWS CLI, a script) sees the same tables; with a data dir it is one file, shared-local-instance.db.
    '-sharedDb',
    '-disableTelemetry',
  ];
}
