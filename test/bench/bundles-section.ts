// Section 9 of `npm run bench`: the Lambda bundles and their cold starts, measured by
// `npm run bench:coldstart` (coldstart.ts) in a child process, against the sweeper's in the same
// run, with issue 18's bounds for the http function: at most 1.5 MB loaded at start, and a
// start in at most 1.5× the sweeper's time.
import { runBenchScript } from './child-script.ts';
import { ms, ratio } from './stats.ts';

/** What coldstart.ts --json prints. */
export interface ColdStartReport {
  runs: number;
  machine: string;
  results: {
    bundle: string;
    bytes: number;
    gzip_bytes: number;
    asset_bytes: number;
    process_ms: { median: number; min: number; max: number };
    process_vs_empty: number;
    process_vs_sweeper: number;
    import_ms: number;
    import_with_source_maps_ms: number;
  }[];
}

export type BundlesRun = { ok: true; report: ColdStartReport } | { ok: false; failure: string };

const HTTP_BOUND_BYTES = 1_500_000;
const HTTP_BOUND_VS_SWEEPER = 1.5;

export async function runBundlesBench(runs: number, timeoutMs: number, log: (line: string) => void): Promise<BundlesRun> {
  const outcome = await runBenchScript('coldstart.ts', ['--runs', String(runs), '--json'], { timeoutMs, log });
  if (!outcome.ok) return { ok: false, failure: outcome.failure ?? 'failed' };
  return { ok: true, report: JSON.parse(outcome.stdout) as ColdStartReport };
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

export function bundlesSection(run: BundlesRun | undefined): string[] {
  const heading = '## 9. Lambda bundles and cold starts';
  if (run === undefined) return [];
  if (!run.ok) return [heading, '', `Not measured in this run: \`bench:coldstart\` ${run.failure}.`, ''];
  const { report } = run;
  const http = report.results.find((r) => r.bundle === 'handlers/http.ts');
  const verdict =
    http === undefined
      ? []
      : [
          `The http function (\`/mcp\` and \`/v1\`) loads **${(http.bytes / 1e6).toFixed(2)} MB** at a cold start (the bound: ${HTTP_BOUND_BYTES / 1e6} MB, ${http.bytes <= HTTP_BOUND_BYTES ? 'met' : '**not met**'}) ` +
            `and starts in **${ratio(http.process_vs_sweeper)}** the sweeper's time (the bound: ${HTTP_BOUND_VS_SWEEPER}×, ${http.process_vs_sweeper <= HTTP_BOUND_VS_SWEEPER ? 'met' : '**not met**'}). ` +
            'Before the bundle was split into chunks loaded on first use (docs/deploy.md, "Split into chunks"), `bench:coldstart -- --runs 9` of 2026-12-01 measured 5848.5 KiB loaded at start and 1.60× the sweeper.',
        ];
  return [
    heading,
    '',
    `Command: \`npm run bench:coldstart -- --runs ${report.runs} --json\` (\`test/bench/coldstart.ts\`), run by \`npm run bench\` in a child process. ` +
      'Each handler is bundled as the CDK stack bundles it (esbuild, split into chunks); "loaded at start" is `index.mjs` and the chunks it imports ' +
      `statically. Each time is the median of ${report.runs} fresh Node processes (start, import, exit), interleaved, so every ratio is against a reference measured in the same run (${report.machine}).`,
    '',
    '| bundle | loaded at start | gzip | whole asset | fresh process ms (min / **median** / max) | vs the sweeper | vs an empty module | import alone ms | with --enable-source-maps ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...report.results.map(
      (r) =>
        `| ${r.bundle} | ${kib(r.bytes)} | ${kib(r.gzip_bytes)} | ${kib(r.asset_bytes)} | ${ms(r.process_ms.min)} / **${ms(r.process_ms.median)}** / ${ms(r.process_ms.max)} | ${ratio(r.process_vs_sweeper)} | ${ratio(r.process_vs_empty)} | ${ms(r.import_ms)} | ${ms(r.import_with_source_maps_ms)} |`,
    ),
    '',
    ...verdict,
    '',
  ];
}
