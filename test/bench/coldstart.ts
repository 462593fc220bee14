// `npm run bench:coldstart`: what a Lambda cold start pays for each handler before its first
// event. Bundles handlers/{http,stream,sweeper}.ts with esbuild using the CDK stack's own
// settings, split into chunks (infra/bundling.ts), prints what a cold start loads (index.mjs and
// the chunks it imports statically: bytes and gzip), the whole asset with the chunks loaded on
// first use, and what a fresh Node process pays to load it — the median of N fresh processes:
// the whole process (start, import, exit) as a ratio against a fresh process importing an empty
// module in the same run, so the figure survives a slower or busier machine, and the import
// alone by the process's own clock. Import only: the handlers build their context on the first
// event, which this does not send.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { splitBuildOptions } from '../../infra/bundling.ts';
import { ms, ratio, spread } from './stats.ts';

const HELP = `usage: npm run bench:coldstart [-- --runs <n>] [--json]

Bundles each Lambda handler exactly as the CDK stack does (esbuild, ESM, minified, node22, split
into chunks loaded on first use) and measures, for each: what a cold start loads (index.mjs and
the chunks it imports statically; bytes, gzip) and the whole asset; the median over <n> fresh Node processes of the
whole process (start, import, exit) as a ratio against a fresh process importing an empty module
and against the sweeper's, in the same run; and the import alone, by the process's own clock, without and with
--enable-source-maps (the stack sets it). Processes are interleaved so load on the machine hits
every row alike.

options:
  --runs <n>   fresh processes per bundle and mode (default 15, 3-200)
  --json       print the results as JSON
  -h, --help   this text
`;

const HANDLERS = ['http', 'stream', 'sweeper'] as const;
const execFileAsync = promisify(execFile);
const err = (line: string): void => void process.stderr.write(`${line}\n`);

interface Row {
  name: string;
  /** What a cold start reads: index.mjs and the chunks it imports statically. */
  bytes: number;
  gzipBytes: number;
  /** Every .mjs of the asset, the chunks loaded on first use included. */
  assetBytes: number;
  processMs: number[];
  importMs: number[];
  importMapsMs: number[];
}

/** A fresh Node process importing the module: its wall time (parent's clock) and the import alone (its own). */
async function coldImport(file: string, sourceMaps: boolean): Promise<{ processMs: number; importMs: number }> {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  const args = [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script];
  const started = performance.now();
  const { stdout } = await execFileAsync(process.execPath, args, { timeout: 60_000 });
  return { processMs: performance.now() - started, importMs: Number(stdout) };
}

/** index.mjs and every chunk it reaches through static imports: what importing the handler reads. */
function startupFiles(outputs: Metafile['outputs'], entry: string): string[] {
  const byPath = new Map(Object.entries(outputs).map(([file, output]) => [resolve(file), output]));
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of byPath.get(file)?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(resolve(imported.path));
  };
  visit(resolve(entry));
  return [...seen];
}

async function main(argv: string[]): Promise<number> {
  let runs = 15;
  let json = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    json = values.json ?? false;
    if (values.runs !== undefined) {
      runs = Number(values.runs);
      if (!Number.isInteger(runs) || runs < 3 || runs > 200) throw new Error('--runs must be a whole number from 3 to 200');
    }
  } catch (error) {
    err(`bench:coldstart: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }

  const dir = mkdtempSync(join(tmpdir(), 'lorebook-coldstart-'));
  try {
    const rows: Row[] = [];
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export const handler = async () => ({});\n');
    rows.push({
      name: 'empty module (reference)',
      bytes: statSync(empty).size,
      gzipBytes: gzipSync(readFileSync(empty)).length,
      assetBytes: statSync(empty).size,
      processMs: [],
      importMs: [],
      importMapsMs: [],
    });
    for (const name of HANDLERS) {
      err(`bench:coldstart: bundling handlers/${name}.ts`);
      const built = await build({
        ...splitBuildOptions(new URL(`../../handlers/${name}.ts`, import.meta.url).pathname, join(dir, name)),
        metafile: true,
      });
      const outputs = built.metafile.outputs;
      const startup = startupFiles(outputs, join(dir, name, 'index.mjs'));
      const code = startup.map((file) => readFileSync(file));
      rows.push({
        name: `handlers/${name}.ts`,
        bytes: code.reduce((sum, bytes) => sum + bytes.length, 0),
        gzipBytes: code.reduce((sum, bytes) => sum + gzipSync(bytes).length, 0),
        assetBytes: Object.entries(outputs).reduce((sum, [file, output]) => (file.endsWith('.mjs') ? sum + output.bytes : sum), 0),
        processMs: [],
        importMs: [],
        importMapsMs: [],
      });
    }
    const files = [empty, ...HANDLERS.map((name) => join(dir, name, 'index.mjs'))];
    // Interleaved rounds: a burst of load on the machine lands on every row, not on one.
    for (let round = 0; round < runs; round += 1) {
      err(`bench:coldstart: round ${round + 1}/${runs} (${files.length * 2} fresh processes)`);
      for (const [index, file] of files.entries()) {
        const row = rows[index] as Row;
        const plain = await coldImport(file, false);
        row.processMs.push(plain.processMs);
        row.importMs.push(plain.importMs);
        row.importMapsMs.push((await coldImport(file, true)).importMs);
      }
    }
    const reference = spread((rows[0] as Row).processMs).median;
    const sweeper = spread((rows.find((row) => row.name === 'handlers/sweeper.ts') as Row).processMs).median;
    const results = rows.map((row) => {
      const whole = spread(row.processMs);
      const plain = spread(row.importMs);
      const maps = spread(row.importMapsMs);
      return {
        bundle: row.name,
        bytes: row.bytes,
        gzip_bytes: row.gzipBytes,
        asset_bytes: row.assetBytes,
        process_ms: { median: whole.median, min: whole.min, max: whole.max },
        process_vs_empty: whole.median / reference,
        process_vs_sweeper: whole.median / sweeper,
        import_ms: plain.median,
        import_with_source_maps_ms: maps.median,
      };
    });
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`;
    if (json) {
      process.stdout.write(`${JSON.stringify({ runs, machine, results }, null, 2)}\n`);
      return 0;
    }
    const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
    const lines = [
      `cold import of each Lambda bundle: median of ${runs} fresh Node processes (${machine})`,
      '',
      '| bundle | loaded at start | gzip | whole asset (all chunks) | fresh process ms (min-max) | vs empty module | vs sweeper | import alone ms | import with --enable-source-maps ms |',
      '|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.bundle} | ${kib(r.bytes)} | ${kib(r.gzip_bytes)} | ${kib(r.asset_bytes)} | ${ms(r.process_ms.median)} (${ms(r.process_ms.min)}-${ms(r.process_ms.max)}) | ${ratio(r.process_vs_empty)} | ${ratio(r.process_vs_sweeper)} | ${ms(r.import_ms)} | ${ms(r.import_with_source_maps_ms)} |`,
      ),
      '',
      'Lambda runs these on arm64 (Graviton) with 512-1024 MB: absolute times there differ from this machine; the ratios are the comparable part.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
