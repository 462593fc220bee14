// `npm run mutation:summary -- <stryker json report> [--survivors]`: the numbers of a
// Stryker run as markdown, per file and in total (mutants, killed, timeout, survived, no
// coverage, score), and with --survivors a table of every surviving and uncovered mutant with
// its line, so BENCHMARKS.md and docs/mutation-survivors.md are filled from the report rather
// than by eye. Reads the mutation-testing-report-schema JSON Stryker's json reporter writes, or
// the folder of Stryker's event-recorder reporter, which holds every mutant tested so far: the
// numbers of a run that is still going (or was stopped) instead of nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const HELP = `usage: npm run mutation:summary -- <report.json | event-recorder folder> [--survivors]

Prints markdown: one row per mutated file and a total (score = (killed + timeout) / (killed +
timeout + survived + no coverage); ignored mutants, e.g. of an excluded mutator, are counted
apart), and with --survivors every Survived / NoCoverage mutant as
file:line | status | mutator | original line | replacement.
A folder (the event-recorder reporter's eventReporter.baseDir) gives the mutants tested so far.
e.g. npm run mutation:summary -- reports/mutation/auth.json --survivors
`;

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

interface TestedEvent extends Mutant {
  fileName: string;
}

/** The mutants tested so far, from the event-recorder's `<n>-onMutantTested.json` files. */
function reportFromEvents(folder: string): Report {
  const files: Report['files'] = {};
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('-onMutantTested.json'))) {
    const event = JSON.parse(readFileSync(join(folder, name), 'utf8')) as TestedEvent;
    const file = relative(process.cwd(), event.fileName);
    files[file] ??= { source: readFileSync(file, 'utf8'), mutants: [] };
    files[file].mutants.push(event);
  }
  return { files };
}

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'] as const;

function counts(mutants: readonly Mutant[]): Record<(typeof COUNTED)[number], number> & { total: number; ignored: number; score: string } {
  const by = (status: string): number => mutants.filter((mutant) => mutant.status === status).length;
  const [killed, timeout, survived, noCoverage] = COUNTED.map(by) as [number, number, number, number];
  const total = killed + timeout + survived + noCoverage;
  return {
    Killed: killed,
    Timeout: timeout,
    Survived: survived,
    NoCoverage: noCoverage,
    total,
    ignored: by('Ignored'),
    score: total === 0 ? 'n/a' : `${((100 * (killed + timeout)) / total).toFixed(1)} %`,
  };
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('`', "'");

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { survivors: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const input = positionals[0] as string;
  const report = statSync(input).isDirectory() ? reportFromEvents(input) : (JSON.parse(readFileSync(input, 'utf8')) as Report);
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    '| file | mutants | killed | timeout | survived | no coverage | score | ignored (not run) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, file] of files) {
    const c = counts(file.mutants);
    lines.push(`| \`${name}\` | ${c.total} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} | ${c.score} | ${c.ignored} |`);
  }
  const all = counts(files.flatMap(([, file]) => file.mutants));
  lines.push(
    `| **total** | ${all.total} | ${all.Killed} | ${all.Timeout} | ${all.Survived} | ${all.NoCoverage} | **${all.score}** | ${all.ignored} |`,
  );
  if (values.survivors) {
    lines.push('', '| file:line | status | mutator | original | mutant |', '|---|---|---|---|---|');
    for (const [name, file] of files) {
      const source = file.source.split('\n');
      for (const mutant of file.mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')) {
        const line = mutant.location.start.line;
        const original = (source[line - 1] ?? '').trim().slice(0, 110);
        lines.push(
          `| ${name}:${line} | ${mutant.status} | ${mutant.mutatorName} | \`${cell(original)}\` | \`${cell((mutant.replacement ?? '').slice(0, 80))}\` |`,
        );
      }
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
