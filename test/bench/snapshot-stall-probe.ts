// Loaded into the server with `node --import` by snapshot-stall.ts: once a second it appends to
// BENCH_STALL_FILE "<epoch ms> <max ms> <gc ms> <wait ms>": the longest the main thread's event
// loop was held in that second (perf_hooks.monitorEventLoopDelay); the longest garbage-collection
// pause of the main thread's own heap in it (PerformanceObserver 'gc'); and how long the main
// thread waited, runnable, for a core in it (Linux: /proc/self/task/<pid>/schedstat), so a stall
// can be told apart from a collection of the serving thread's own heap and from a machine whose
// cores were all busy. Worker threads load it too and record nothing.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STALL_FILE;
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
/** Nanoseconds the main thread has spent runnable but not running, 0 where the kernel does not say. */
const waitedNs = (): number => (existsSync(SCHEDSTAT) ? Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[1]) : 0);

if (isMainThread && file !== undefined) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gcMax = 0;
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  let waited = waitedNs();
  setInterval(() => {
    const now = waitedNs();
    appendFileSync(file, `${Date.now()} ${(delay.max / 1e6).toFixed(1)} ${gcMax.toFixed(1)} ${((now - waited) / 1e6).toFixed(1)}\n`);
    delay.reset();
    gcMax = 0;
    waited = now;
  }, 1000).unref();
}
