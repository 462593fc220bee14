// `npm run bench:spam-waves` (BENCHMARKS.md §13): what the spam-wave rule (design.md#spam-waves) finds and costs.
//   accuracy — up to 400 distinct markdown files of the secrets corpus (node_modules docs and the
//              story fixtures, 1.5–64 KiB, exact copies dropped), the truth being their exact
//              3-word-shingle Jaccard; near-duplicates are two spammer copies (test/helpers/spam-wave.ts)
//              of each of the first 100. Counts what the rule refuses: a shared band and an estimate ≥ 0.6.
//   signature — the time to sign a 63 KiB story and the 1.7 KiB fixture story.
//   publish  — first publishes of distinct stories through the app on DynamoDB Local, with the check
//              and without it, alternated so both see the same machine load; p50 and the ratio.
// LOREBOOK_TEST_DDB_ENDPOINT reuses a running DynamoDB Local instead of starting one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import {
  bandsOf,
  estimatedSimilarity,
  foldedWords,
  NEAR_DUPLICATE_SIMILARITY,
  signatureOf,
  storyBody,
} from '../../src/domain/near-duplicate/near-duplicate-signature.ts';
import { sharedOffload } from '../../src/offload/offload.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { spamText, storyOfItsOwn } from '../helpers/spam-wave.ts';
import { successStory } from '../helpers/stories.ts';
import { corpusFiles } from './secrets.ts';
import { ms, percentile, ratio } from './stats.ts';

const ROUNDS = Number(process.env.LOREBOOK_BENCH_SPAM_ROUNDS ?? 40);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

function distinctDocs(limit: number): string[] {
  const seen = new Set<string>();
  const docs = corpusFiles()
    .map((file) => readFileSync(file, 'utf8'))
    .filter((text) => text.length >= 1536 && text.length <= 65_536)
    .filter((text) => {
      const hash = createHash('sha256').update(text).digest('hex');
      return !seen.has(hash) && seen.add(hash) !== undefined;
    });
  const step = Math.max(1, Math.floor(docs.length / limit));
  return docs.filter((_, index) => index % step === 0).slice(0, limit);
}

const shingles = (text: string): Set<string> => {
  const words = foldedWords(text);
  return new Set(Array.from({ length: Math.max(1, words.length - 2) }, (_, start) => words.slice(start, start + 3).join(' ')));
};
const jaccard = (a: Set<string>, b: Set<string>): number => {
  let shared = 0;
  for (const shingle of a) if (b.has(shingle)) shared += 1;
  return shared / (a.size + b.size - shared);
};
interface Signed {
  signature: Uint32Array;
  bands: Set<string>;
}
const signed = (text: string): Signed => {
  const signature = signatureOf(text);
  return { signature, bands: new Set(bandsOf(signature)) };
};
/** What the rule refuses: a shared band, and an estimate at the threshold. */
const refused = (a: Signed, b: Signed): boolean =>
  [...a.bands].some((band) => b.bands.has(band)) && estimatedSimilarity(a.signature, b.signature) >= NEAR_DUPLICATE_SIMILARITY;

function accuracy(): void {
  const docs = distinctDocs(400);
  const sets = docs.map(shingles);
  const signatures = docs.map(signed);
  const near = docs.slice(0, 100).flatMap((doc, index) => [
    [doc, spamText(doc, index + 1)],
    [spamText(doc, index + 200), spamText(doc, index + 300)],
  ]);
  const nearJ = near.map(([a, b]) => jaccard(shingles(a as string), shingles(b as string))).sort((a, b) => a - b);
  const found = near.filter(([a, b]) => refused(signed(a as string), signed(b as string))).length;
  let distinct = 0;
  let distinctRefused = 0;
  let templates = 0;
  for (let i = 0; i < docs.length; i += 1) {
    for (let j = i + 1; j < docs.length; j += 1) {
      const truth = jaccard(sets[i] as Set<string>, sets[j] as Set<string>);
      if (truth >= 0.6) templates += 1;
      if (truth >= 0.3) continue;
      distinct += 1;
      if (refused(signatures[i] as Signed, signatures[j] as Signed)) distinctRefused += 1;
    }
  }
  log(
    `accuracy: ${docs.length} documents; spammer copies refused ${found}/${near.length} (their exact Jaccard min ${nearJ[0]?.toFixed(2)}, p50 ${nearJ[nearJ.length >> 1]?.toFixed(2)})`,
  );
  log(
    `accuracy: distinct pairs (exact Jaccard < 0.3) refused ${distinctRefused}/${distinct}; pairs that really are near-duplicates (≥ 0.6, templated READMEs) ${templates}`,
  );
}

function signatureCost(): void {
  const big = storyBody(storyOfItsOwn('A long one', 1))
    .repeat(1)
    .padEnd(63 * 1024, ' lorem ipsum dolor sit amet consectetur');
  const small = storyBody(successStory());
  for (const [name, text] of [
    ['63 KiB', big],
    ['fixture 1.7 KiB', small],
  ] as const) {
    const times: number[] = [];
    for (let round = 0; round < 50; round += 1) {
      const start = performance.now();
      signatureOf(text);
      times.push(performance.now() - start);
    }
    log(`signature ${name}: p50 ${ms(percentile(times, 50))} ms p99 ${ms(percentile(times, 99))} ms`);
  }
}

async function publishCost(): Promise<void> {
  const shared = process.env.LOREBOOK_TEST_DDB_ENDPOINT;
  // A busy machine starts the JVM slowly: this is a benchmark, not a readiness check.
  const ddb = shared === undefined ? await startDynamoDbLocal({ log, readyTimeoutMs: 120_000 }) : undefined;
  const client = createStoreClient({ endpoint: shared ?? (ddb?.endpoint as string) });
  try {
    const context = (duplicateWindowHours: number, tableName: string): AppContext => ({
      store: { client, tableName, now: Date.now },
      config: { ...DEFAULT_APP_CONFIG, duplicateWindowHours },
      sleep: (wait) => new Promise((resolve) => setTimeout(resolve, wait)),
      random: Math.random,
    });
    const tableName = `bench-spam-waves-${Date.now()}`;
    await ensureTable(client, tableName);
    const kinds = { without: context(0, tableName), checked: context(168, tableName) };
    const times = { without: [] as number[], checked: [] as number[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of (round % 2 === 0 ? ['without', 'checked'] : ['checked', 'without']) as (keyof typeof kinds)[]) {
        const markdown = storyOfItsOwn(`Bench ${kind} ${round}`, round * 2 + (kind === 'checked' ? 1 : 0) + 1000);
        const start = performance.now();
        await publishStory(kinds[kind], { account: `acct-${kind}-${round}`, handle: `${kind}.test` }, { markdown });
        times[kind].push(performance.now() - start);
      }
    }
    const base = percentile(times.without, 50);
    for (const kind of ['without', 'checked'] as const) {
      const p50 = percentile(times[kind], 50);
      log(
        `publish ${kind}: p50 ${ms(p50)} ms p99 ${ms(percentile(times[kind], 99))} ms | /without at p50 ${ratio(p50 / base)} (${ROUNDS} first publishes each)`,
      );
    }
  } finally {
    client.destroy();
    await sharedOffload().close();
    await ddb?.stop();
  }
}

accuracy();
signatureCost();
await publishCost();
