// Loaded into the server with `node --import` by snapshot-stall.ts: once a second, the longest the
// main thread's event loop was held in that second (perf_hooks.monitorEventLoopDelay) is appended
// to BENCH_STALL_FILE as "<epoch ms> <max ms>". Worker threads load it too and record nothing.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STALL_FILE;
if (isMainThread && file !== undefined) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)}\n`);
    delay.reset();
  }, 1000).unref();
}
