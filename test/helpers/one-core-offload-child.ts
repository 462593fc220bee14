// A process of its own for the one-core test (test/integration/fair-cpu/one-core.test.ts), started
// under `taskset -c 0` so that the OS gives it one core: the offload workers with their defaults
// run a heavy job of HEAVY_MS, and, once it holds its worker, a light job. Prints one JSON line:
// how many workers the default gave, and the order the two jobs answered in.
import { createOffload, defaultWorkers } from '../../src/offload/offload.ts';
import { SPIN } from './offload-tasks.ts';

const HEAVY_MS = 5_000;
const offload = createOffload();
const order: string[] = [];
const heavy = offload.run({ ...SPIN(60_000), heavy: () => true }, HEAVY_MS, 'ip:scanner').then(() => order.push('heavy'));
// The heavy job has its worker (a cold start included) by then; a spare has 4 s to start beside it.
await new Promise((resolve) => setTimeout(resolve, 1_000));
const light = offload.run(SPIN(60_000), 10, 'ip:reader').then(() => order.push('light'));
await Promise.all([heavy, light]);
await offload.close();
process.stdout.write(`${JSON.stringify({ workers: defaultWorkers(), order })}\n`);
