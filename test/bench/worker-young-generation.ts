// `npm run bench:worker-heap`: what the offload workers' young-generation cap (DEFAULT_LIMITS in
// src/offload/offload.ts) costs and saves, measured on the real workers (BENCHMARKS.md §11). Each
// cap runs in a process of its own: every text the markdown cost limits accept at their worst
// (test/helpers/hostile-markdown.ts) and the costliest capability scan, once to warm up and twice
// measured, one at a time on one worker. Reported per pass: the worker's time on the tasks, the
// whole process's CPU (V8's platform threads collect a worker's garbage, and their time is not the
// worker's), and the process's peak RSS; as ratios of the default cap's, measured in the same run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHECK_CAPABILITY_TASK } from '../../src/app/capability/check-capability-task.ts';
import { createOffload, DEFAULT_LIMITS } from '../../src/offload/offload.ts';
import { costliestAcceptedScan, WORST_ACCEPTED } from '../helpers/hostile-markdown.ts';
import { ms, ratio } from './stats.ts';

const CAPS_MB = [8, 16, 32];
const MEASURED_PASSES = 2;

interface CapRun {
  youngMb: number;
  workerMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/** The texts of one pass: the worst the cost limits accept, and the fairness bench's costliest scan. */
function texts(): string[] {
  return [...WORST_ACCEPTED.map((shape) => shape.narrative), costliestAcceptedScan()];
}

async function measure(youngMb: number): Promise<CapRun> {
  const offload = createOffload({
    resourceLimits: { ...DEFAULT_LIMITS, maxYoungGenerationSizeMb: youngMb },
    share: { slots: 1, perCaller: 1, perCallerWaiting: 64, maxWaiting: 64, maxWaitMs: 60_000 },
  });
  const pass = async (): Promise<number> => {
    let workerMs = 0;
    for (const text of texts()) {
      const started = performance.now();
      await offload.run(CHECK_CAPABILITY_TASK, text);
      workerMs += performance.now() - started;
    }
    return workerMs;
  };
  try {
    await pass();
    const cpuBefore = process.cpuUsage();
    let workerMs = 0;
    for (let index = 0; index < MEASURED_PASSES; index += 1) workerMs += await pass();
    const cpu = process.cpuUsage(cpuBefore);
    const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return {
      youngMb,
      workerMs: workerMs / MEASURED_PASSES,
      cpuMs: (cpu.user + cpu.system) / 1000 / MEASURED_PASSES,
      peakRssMb: Number(peak?.[1] ?? 0) / 1024,
    };
  } finally {
    await offload.close();
  }
}

if (process.argv[2] !== undefined) {
  process.stdout.write(`${JSON.stringify(await measure(Number(process.argv[2])))}\n`);
} else {
  const runs: CapRun[] = [];
  for (const youngMb of CAPS_MB) {
    process.stderr.write(`young generation ${youngMb} MB...\n`);
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(youngMb)], { encoding: 'utf8', timeout: 600_000 });
    if (child.status !== 0) throw new Error(`the ${youngMb} MB run failed: ${child.stderr.slice(-2000)}`);
    runs.push(JSON.parse(child.stdout) as CapRun);
  }
  const reference = runs.find((run) => run.youngMb === DEFAULT_LIMITS.maxYoungGenerationSizeMb) ?? runs[0];
  if (reference === undefined) throw new Error('no run');
  process.stdout.write(
    `${[
      `| young generation cap | worker's time a pass | process CPU a pass | peak RSS |`,
      '|---|---|---|---|',
      ...runs.map(
        (run) =>
          `| ${run.youngMb} MB${run === reference ? ' (the default)' : ''} | ${ms(run.workerMs)} ms (${ratio(run.workerMs / reference.workerMs)}) | ${ms(run.cpuMs)} ms (${ratio(run.cpuMs / reference.cpuMs)}) | ${run.peakRssMb.toFixed(0)} MiB (${ratio(run.peakRssMb / reference.peakRssMb)}) |`,
      ),
    ].join('\n')}\n`,
  );
}
