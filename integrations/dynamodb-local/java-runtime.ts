// Finding a runnable Java 17+ before anything else, so a missing JVM is one clear sentence
// instead of a spawn ENOENT or a readiness timeout 30 seconds later.
import { execFile } from 'node:child_process';
import { readSettings } from '../../src/settings/read-settings.ts';
import { JavaUnavailableError } from './errors.ts';

export const MIN_JAVA_MAJOR = 17;

/** The `java` to run: an explicit option, then env JAVA, then `java` on PATH. */
export function resolveJavaBinary(option?: string, env: NodeJS.ProcessEnv = readSettings()): string {
  return option ?? (env.JAVA || 'java');
}

/** Parses the major version from `java -version` output ("17.0.15", "1.8.0_392", "25"). */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(versionOutput);
  if (match === null) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/** Runs `java -version`; resolves the major version or throws JavaUnavailableError. */
export function checkJava(java: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(java, ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error !== null) {
        const code = (error as NodeJS.ErrnoException).code;
        const problem =
          code === 'ENOENT'
            ? 'Java was not found'
            : code === 'EACCES'
              ? 'the java binary is not executable'
              : `\`java -version\` failed (${error.message.split('\n')[0]})`;
        reject(new JavaUnavailableError(java, problem, { cause: error }));
        return;
      }
      const major = parseJavaMajor(`${stderr}\n${stdout}`);
      if (major === undefined) {
        reject(new JavaUnavailableError(java, 'could not read the Java version'));
      } else if (major < MIN_JAVA_MAJOR) {
        reject(new JavaUnavailableError(java, `found Java ${major}, which is too old`));
      } else {
        resolve(major);
      }
    });
  });
}
