// `npm run test:durations -- <report.json>`: writes test/sequencer/file-durations.json from a vitest
// JSON report of a full run (`npx vitest run --reporter=default --reporter=json
// --outputFile.json=<report.json>`), each file's wall seconds, longest first.
import { readFileSync, writeFileSync } from 'node:fs';

interface JsonReport {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const [reportPath] = process.argv.slice(2);
if (reportPath === undefined || reportPath === '--help') {
  process.stdout.write('usage: npm run test:durations -- <vitest JSON report of a full run>\n');
  process.exit(reportPath === undefined ? 2 : 0);
}
/** The file's path from the repository root, wherever the reported run's clone was (CI's, a temp dir). */
const fromRoot = (name: string): string => name.slice(name.lastIndexOf('/test/') + 1);
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as JsonReport;
const durations = report.testResults
  .map((file) => [fromRoot(file.name), Math.round((file.endTime - file.startTime) / 100) / 10] as const)
  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
writeFileSync(new URL('./file-durations.json', import.meta.url), `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
process.stdout.write(
  `test/sequencer/file-durations.json: ${durations.length} files, ${durations.reduce((sum, [, s]) => sum + s, 0).toFixed(0)} s in all\n`,
);
