// `npm run bench:metrics`: what the EMF metrics library costs the http function (BENCHMARKS.md §14).
// Bundles `@aws-lambda-powertools/metrics` with the stack's esbuild settings and reports its bytes
// (what a cold start would read if it were loaded there) and, over fresh Node processes
// interleaved with a reference, the time to import it against an empty module. Then the cost of
// one request's flush (the counts a refused request makes) through the real sink, with stdout
// discarded, against JSON.stringify of the same line written by hand, in the same run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ESBUILD_SETTINGS } from '../../infra/bundling.ts';
import { emfMetrics } from '../../src/metrics/emf-metrics.ts';
import { ms, ratio, spread } from './stats.ts';

const RUNS = 9;
const FLUSHES = 5_000;
const dir = mkdtempSync(join(tmpdir(), 'lorebook-bench-metrics-'));
const library = join(dir, 'library.mjs');
const empty = join(dir, 'empty.mjs');
const entry = join(dir, 'entry.mjs');
writeFileSync(entry, "export { Metrics } from '@aws-lambda-powertools/metrics';\n");
writeFileSync(empty, 'export {};\n');
await build({
  entryPoints: [entry],
  bundle: true,
  outfile: library,
  target: ESBUILD_SETTINGS.target,
  format: ESBUILD_SETTINGS.format,
  platform: ESBUILD_SETTINGS.platform,
  minify: ESBUILD_SETTINGS.minify,
  mainFields: [...ESBUILD_SETTINGS.mainFields],
  banner: { js: ESBUILD_SETTINGS.banner },
  nodePaths: [join(process.cwd(), 'node_modules')],
});

/** ms to import `file` in a fresh Node process, by the process's own clock. */
const importMs = (file: string): number =>
  Number(
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t)`,
    ]).toString(),
  );
const libraryMs: number[] = [];
const emptyMs: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  emptyMs.push(importMs(empty));
  libraryMs.push(importMs(library));
}

/** One refused /v1 request's counts: Requests by surface and in total, one Refusal. */
const sink = emfMetrics((line) => void process.stderr.write(`${line}\n`));
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (() => true) as typeof process.stdout.write;
await sink.flush();
sink.count('Requests', { Surface: 'v1', StatusClass: '4xx' });
await sink.flush();
let started = performance.now();
for (let flush = 0; flush < FLUSHES; flush += 1) {
  sink.count('Requests', { Surface: 'v1', StatusClass: '4xx' });
  sink.count('Refusals', { Code: 'not_found' });
  await sink.flush();
}
const sinkUs = ((performance.now() - started) * 1000) / FLUSHES;
started = performance.now();
for (let flush = 0; flush < FLUSHES; flush += 1) {
  for (const [dimensions, name] of [
    [{ Surface: 'v1', StatusClass: '4xx' }, 'Requests'],
    [{ StatusClass: '4xx' }, 'Requests'],
    [{ Code: 'not_found' }, 'Refusals'],
  ] as const) {
    const names = ['service', ...Object.keys(dimensions)];
    const line = {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [{ Namespace: 'lorebook', Dimensions: [names], Metrics: [{ Name: name, Unit: 'Count' }] }],
      },
      service: 'lorebook',
      ...dimensions,
      [name]: 1,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
const handUs = ((performance.now() - started) * 1000) / FLUSHES;
process.stdout.write = write;
const libraryBytes = statSync(library).size;
rmSync(dir, { recursive: true, force: true });

const lib = spread(libraryMs);
const ref = spread(emptyMs);
console.log(`| Powertools metrics, bundled and minified | ${libraryBytes} bytes |`);
console.log(`| import in a fresh process, ms (min / median / max of ${RUNS}) | ${ms(lib.min)} / **${ms(lib.median)}** / ${ms(lib.max)} |`);
console.log(
  `| an empty module, the same way | ${ms(ref.min)} / **${ms(ref.median)}** / ${ms(ref.max)} (library: ${ratio(lib.median / ref.median)}) |`,
);
console.log(
  `| one request's flush (3 EMF lines) through the sink, µs | ${sinkUs.toFixed(1)} (vs the same lines by hand: ${ratio(sinkUs / handUs)}, ${handUs.toFixed(1)} µs) |`,
);
