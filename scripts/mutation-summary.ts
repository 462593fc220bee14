// `npm run mutation:summary -- <stryker json report> [--survivors]`: the numbers of a
// Stryker run as markdown, per file and in total (mutants, killed, timeout, survived, no
// coverage, score), and with --survivors a table of every surviving and uncovered mutant with
// its line, so BENCHMARKS.md and docs/mutation-survivors.md are filled from the report rather
// than by eye. Reads the mutation-testing-report-schema JSON Stryker's json reporter writes.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const HELP = `usage: npm run mutation:summary -- <report.json> [--survivors]

Prints markdown: one row per mutated file and a total (Stryker's score = (killed + timeout) /
(all mutants but compile errors and ignored)), and with --survivors every Survived / NoCoverage
mutant as file:line | status | mutator | original line | replacement.
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

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'] as const;

function counts(mutants: readonly Mutant[]): Record<(typeof COUNTED)[number], number> & { total: number; score: string } {
  const by = (status: string): number => mutants.filter((mutant) => mutant.status === status).length;
  const [killed, timeout, survived, noCoverage] = COUNTED.map(by) as [number, number, number, number];
  const total = killed + timeout + survived + noCoverage;
  return { Killed: killed, Timeout: timeout, Survived: survived, NoCoverage: noCoverage, total, score: total === 0 ? 'n/a' : `${((100 * (killed + timeout)) / total).toFixed(1)} %` };
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('`', "'");

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { survivors: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const report = JSON.parse(readFileSync(positionals[0] as string, 'utf8')) as Report;
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  const lines = ['| file | mutants | killed | timeout | survived | no coverage | score |', '|---|---|---|---|---|---|---|'];
  for (const [name, file] of files) {
    const c = counts(file.mutants);
    lines.push(`| \`${name}\` | ${c.total} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} | ${c.score} |`);
  }
  const all = counts(files.flatMap(([, file]) => file.mutants));
  lines.push(`| **total** | ${all.total} | ${all.Killed} | ${all.Timeout} | ${all.Survived} | ${all.NoCoverage} | **${all.score}** |`);
  if (values.survivors) {
    lines.push('', '| file:line | status | mutator | original | mutant |', '|---|---|---|---|---|');
    for (const [name, file] of files) {
      const source = file.source.split('\n');
      for (const mutant of file.mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')) {
        const line = mutant.location.start.line;
        const original = (source[line - 1] ?? '').trim().slice(0, 110);
        lines.push(`| ${name}:${line} | ${mutant.status} | ${mutant.mutatorName} | \`${cell(original)}\` | \`${cell((mutant.replacement ?? '').slice(0, 80))}\` |`);
      }
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
