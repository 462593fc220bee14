// Loaded into the server with `node --import` by snapshot-stall.ts: once a second, the longest the
// main thread's event loop was held in that second (perf_hooks.monitorEventLoopDelay) and the
// longest garbage-collection pause of the main thread's own heap in it (PerformanceObserver 'gc')
// are appended to BENCH_STALL_FILE as "<epoch ms> <max ms> <gc ms>", so a stall can be told apart
// from a collection of the serving thread's own heap. Worker threads load it too and record nothing.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STALL_FILE;
if (isMainThread && file !== undefined) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gcMax = 0;
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)} ${gcMax.toFixed(1)}\n`);
    delay.reset();
    gcMax = 0;
  }, 1000).unref();
}
