// What the benchmark ran on: the figures are only comparable within one run on one machine.
import { execFile } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem, platform, release } from 'node:os';
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
}

export async function describeMachine(): Promise<Machine> {
  const java = await promisify(execFile)(process.env['JAVA'] ?? 'java', ['-version']).then(
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
    loadAtStart: loadavg().map((l) => l.toFixed(2)).join(', '),
  };
}
