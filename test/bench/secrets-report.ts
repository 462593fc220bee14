// BENCHMARKS.md's "Secrets at the door" section from one run of ./secrets.ts.
import type { SecretsRun } from './secrets.ts';
import { mmm, ms, spread } from './stats.ts';

const percent = (value: number): string => `${(value * 100).toFixed(2)} %`;

export const SECRETS_HEADING = '## 10. Secrets at the door: false refusals, what is found, and the cost beside a publish';

export function secretsSection(run: SecretsRun | undefined): string[] {
  if (run === undefined) return [SECRETS_HEADING, '', 'Not measured in this run.', ''];
  const { corpus, recall, cost } = run;
  return [
    SECRETS_HEADING,
    '',
    'Every write scans its text arguments for live-looking credentials before anything is written',
    '(`src/domain/secrets/`, docs/design.md#secrets). `npm run bench:secrets` runs this section alone.',
    '',
    `**False refusals of ordinary text: ${corpus.refusals.length}** of ${corpus.files} markdown files that fit a story (${(corpus.bytes / 1024 / 1024).toFixed(1)} MiB: every \`*.md\` under \`node_modules\` — READMEs, CHANGELOGs, docs — and the as-written story corpus in \`test/fixtures\`; ${corpus.tooLarge} over 64 KiB left out; secretlint's preset as shipped refuses ${corpus.refusedAsShipped} of them). Scan per file p50 ${ms(corpus.scanP50Ms)} ms, slowest ${ms(corpus.scanMaxMs)} ms.`,
    ...(corpus.refusals.length === 0 ? [] : ['', ...corpus.refusals.map((refusal) => `- ${refusal.file}: ${refusal.kinds.join(', ')}`)]),
    '',
    `What is found of the credentials an agent's context holds (\`test/helpers/fake-secrets.ts\`: ${recall[0]?.of ?? 0} built from 20 seeds, ${(recall[0]?.of ?? 0) / 20} shapes each) and how many documentation placeholders (AWS's EXAMPLE pair, \`ghp_\` + x's, \`sk-...\`, \`<your-token>\`…) are refused:`,
    '',
    '| scanner | credentials found | missed kinds | placeholders refused |',
    '|---|---|---|---|',
    ...recall.map(
      (row) =>
        `| ${row.scanner} | ${row.found}/${row.of} | ${row.missed.length === 0 ? 'none' : row.missed.join(', ')} | ${row.placeholdersRefused}/${row.placeholders} |`,
    ),
    '',
    `Cost: the scan of a ${(cost.storyBytes / 1024).toFixed(0)} KiB story (what the worker runs for a publish) beside a publish of that story through the app against DynamoDB Local, alternated, ${cost.rounds} rounds.`,
    '',
    '| scan p50 | publish p50 (scan included) | scan / publish, per round (min / **median** / max) |',
    '|---|---|---|',
    `| ${ms(cost.scanP50Ms)} ms | ${ms(cost.publishP50Ms)} ms | ${mmm(spread(cost.ratios), percent)} |`,
    '',
  ];
}
