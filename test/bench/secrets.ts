// The secret scan measured (docs/design.md#secrets): (1) false refusals of ordinary text — every
// markdown file under node_modules that fits a story (≤ 64 KiB: READMEs, CHANGELOGs, docs) and the
// as-written story corpus in test/fixtures; (2) what it finds of the credentials agents hold
// (test/helpers/fake-secrets.ts, 20 seeds) and of documentation placeholders, secretlint's
// recommended preset as shipped beside lorebook's configuration of it; (3) its cost on a 64 KiB
// story as a ratio of a publish of that story through the app against DynamoDB Local, alternated
// in the same run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { AppContext } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { scanSecretFields } from '../../src/app/secrets/scan-secret-fields.ts';
import { scanForSecrets } from '../../src/domain/secrets/scan-secrets.ts';
import { secretKindOf } from '../../src/domain/secrets/secret-kinds.ts';
import { MAX_STORY_MARKDOWN_BYTES } from '../../src/domain/story/story-limits.ts';
import { documentationPlaceholders, fakeSecrets } from '../helpers/fake-secrets.ts';
import { storyTitled } from '../helpers/stories.ts';
import { percentile } from './stats.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEEDS = 20;

export interface Refusal {
  file: string;
  kinds: string[];
}

export interface SecretsRun {
  corpus: {
    files: number;
    bytes: number;
    tooLarge: number;
    refusals: Refusal[];
    /** The same files refused by secretlint's preset as shipped. */
    refusedAsShipped: number;
    scanP50Ms: number;
    scanMaxMs: number;
  };
  recall: Array<{ scanner: string; found: number; of: number; missed: string[]; placeholdersRefused: number; placeholders: number }>;
  cost: { rounds: number; storyBytes: number; scanP50Ms: number; publishP50Ms: number; ratios: number[] };
}

function markdownFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, found);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) found.push(path);
  }
  return found;
}

/** Every markdown file of the corpus, in a stable order. */
export function corpusFiles(): string[] {
  return [...markdownFiles(join(ROOT, 'node_modules')), ...markdownFiles(join(ROOT, 'test/fixtures'))].sort();
}

async function falseRefusals(log: (line: string) => void): Promise<SecretsRun['corpus']> {
  const refusals: Refusal[] = [];
  const times: number[] = [];
  let files = 0;
  let bytes = 0;
  let tooLarge = 0;
  let refusedAsShipped = 0;
  for (const path of corpusFiles()) {
    const size = statSync(path).size;
    if (size > MAX_STORY_MARKDOWN_BYTES) {
      tooLarge += 1;
      continue;
    }
    const text = readFileSync(path, 'utf8');
    const start = performance.now();
    const findings = await scanForSecrets(text);
    times.push(performance.now() - start);
    files += 1;
    bytes += size;
    if ((await presetAsShipped(text)).length > 0) refusedAsShipped += 1;
    if (findings.length > 0)
      refusals.push({ file: relative(ROOT, path), kinds: [...new Set(findings.map((finding) => `${finding.kind}@${finding.line}`))] });
  }
  log(
    `  ordinary text: ${files} files (${(bytes / 1024 / 1024).toFixed(1)} MiB), ${refusals.length} refused, ${tooLarge} over 64 KiB left out`,
  );
  for (const refusal of refusals) log(`    refused: ${refusal.file} (${refusal.kinds.join(', ')})`);
  return { files, bytes, tooLarge, refusals, refusedAsShipped, scanP50Ms: percentile(times, 50), scanMaxMs: Math.max(...times) };
}

/** secretlint's preset exactly as shipped (its defaults, nothing added or filtered): the kinds it names. */
async function presetAsShipped(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'story.md', ext: '.md', contentType: 'text' },
    options: {
      config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] },
      noPhysicFilePath: true,
      maskSecrets: true,
    },
  });
  return result.messages.map((message) => secretKindOf(message.messageId, message.ruleId).kind);
}

const lorebookScan = async (text: string): Promise<string[]> => (await scanForSecrets(text)).map((finding) => finding.kind);

async function recall(): Promise<SecretsRun['recall']> {
  const scanners: Array<[string, (text: string) => Promise<string[]>]> = [
    ['secretlint preset-recommend 13.1.0 as shipped', presetAsShipped],
    ['lorebook: that preset configured, plus its own patterns and placeholder filter', lorebookScan],
  ];
  const rows: SecretsRun['recall'] = [];
  for (const [scanner, kindsIn] of scanners) {
    let found = 0;
    let of = 0;
    const missed = new Set<string>();
    for (let seed = 1; seed <= SEEDS; seed += 1) {
      for (const secret of fakeSecrets(seed)) {
        of += 1;
        if ((await kindsIn(secret.text)).includes(secret.kind)) found += 1;
        else missed.add(secret.kind);
      }
    }
    const placeholders = documentationPlaceholders();
    let placeholdersRefused = 0;
    for (const text of placeholders) if ((await kindsIn(text)).length > 0) placeholdersRefused += 1;
    rows.push({ scanner, found, of, missed: [...missed].sort(), placeholdersRefused, placeholders: placeholders.length });
  }
  return rows;
}

/** A valid story just under 64 KiB: the sample story with its narrative grown. */
function bigStory(title: string): string {
  const paragraph = 'The worker read the queue, wrote each batch under a condition and moved on; nothing here is a secret. ';
  let markdown = storyTitled(title);
  const room = MAX_STORY_MARKDOWN_BYTES - Buffer.byteLength(markdown) - 512;
  markdown = storyTitled(title, { extra: paragraph.repeat(Math.floor(room / paragraph.length)) });
  return markdown;
}

async function cost(ctx: AppContext, rounds: number): Promise<SecretsRun['cost']> {
  const author = { account: 'acct-bench-secrets', handle: 'bench-secrets.test' };
  const scans: number[] = [];
  const publishes: number[] = [];
  const ratios: number[] = [];
  let storyBytes = 0;
  for (let round = 0; round < rounds + 3; round += 1) {
    const markdown = bigStory(`Secret scan bench story ${round} ${Date.now()}`);
    storyBytes = Buffer.byteLength(markdown);
    const scanStart = performance.now();
    // What the worker runs for a publish: every text argument (here the markdown alone).
    await scanSecretFields([['markdown', markdown]]);
    const scan = performance.now() - scanStart;
    const publishStart = performance.now();
    await publishStory(ctx, author, { markdown });
    const publish = performance.now() - publishStart;
    if (round < 3) continue;
    scans.push(scan);
    publishes.push(publish);
    ratios.push(scan / publish);
  }
  return { rounds, storyBytes, scanP50Ms: percentile(scans, 50), publishP50Ms: percentile(publishes, 50), ratios };
}

export async function runSecretsBench(ctx: AppContext, options: { rounds: number; log: (line: string) => void }): Promise<SecretsRun> {
  const { log } = options;
  const corpus = await falseRefusals(log);
  const found = await recall();
  for (const row of found)
    log(`  ${row.scanner}: found ${row.found}/${row.of}; placeholders refused ${row.placeholdersRefused}/${row.placeholders}`);
  const measured = await cost(ctx, options.rounds);
  log(`  64 KiB story: scan p50 ${measured.scanP50Ms.toFixed(2)} ms, publish p50 ${measured.publishP50Ms.toFixed(1)} ms`);
  return { corpus, recall: found, cost: measured };
}
