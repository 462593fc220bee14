// `npm run bench:backup [-- <stories> [<sampled>] [memory|disk]]` (BENCHMARKS.md §15 and its 5,000-story section): a store of
// 5,000 stories (default) with reproduction reports, drafts and images, built through the app,
// exported by `npm run backup` in a process of its own (its peak RSS read by /usr/bin/time),
// imported by it into an empty table and image directory, and every /v1, page and MCP answer of
// 200 sampled stories (default) compared byte for byte. DynamoDB Local runs in memory by default:
// with a data dir its writes are 2-5x slower (40-160 items/s here, by load, however
// the writes are batched), which bounds seeding and import alike; `disk` measures that case.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../src/app/context/app-context.ts';
import { VerifiedTokens } from '../../src/app/context/verified-tokens.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { imageBlobsInDirectory } from '../../src/store/image/blobs-dir.ts';
import { answersFor, BACKUP_WORLD_CONFIG, seedBackupWorld } from '../helpers/backup-world.ts';
import { withoutLorebookSettings } from '../helpers/command-env.ts';

const run = promisify(execFile);
const STORIES = Number(process.argv[2] ?? 5_000);
const SAMPLE = Number(process.argv[3] ?? 200);
const ON_DISK = process.argv[4] === 'disk';
const work = mkdtempSync(join(tmpdir(), 'bench-backup-'));
/**
 * Each store in a DynamoDB Local of its own, as a restore onto a new machine would be: in one
 * shared database the import ran at ~10 items/s beside the 5,000-story source (BENCHMARKS.md, "Backup round trip at 5,000 stories").
 */
async function dynamoDbLocal(name: string): Promise<{ endpoint: string; client: DynamoDBDocumentClient; stop(): Promise<void> }> {
  const ddb = await startDynamoDbLocal({ ...(ON_DISK ? { dataDir: join(work, name) } : {}), log: () => {} });
  const client = createStoreClient({ endpoint: ddb.endpoint });
  return {
    endpoint: ddb.endpoint,
    client,
    stop: async () => {
      client.destroy();
      await ddb.stop();
    },
  };
}
const sourceDdb = await dynamoDbLocal('dynamodb-source');
const targetDdb = await dynamoDbLocal('dynamodb-target');

function storeAt(
  ddb: { endpoint: string; client: DynamoDBDocumentClient },
  tableName: string,
  imageDir: string,
): AppContext & { endpoint: string } {
  return {
    endpoint: ddb.endpoint,
    store: { client: ddb.client, tableName, now: () => Date.now() },
    config: { ...DEFAULT_APP_CONFIG, ...BACKUP_WORLD_CONFIG },
    images: imageBlobsInDirectory(imageDir),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    verifiedTokens: new VerifiedTokens(),
  };
}

/** The CLI as an operator runs it, under /usr/bin/time: its summary and its peak RSS in KiB. */
async function backup(
  ctx: AppContext & { endpoint: string },
  imageDir: string,
  args: string[],
): Promise<{ summary: Record<string, unknown>; maxRssKib: number }> {
  const env = {
    ...withoutLorebookSettings(),
    LOREBOOK_DDB_ENDPOINT: ctx.endpoint,
    LOREBOOK_TABLE: ctx.store.tableName,
    LOREBOOK_IMAGE_DIR: imageDir,
  };
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, 'src/cli/backup.ts', ...args, '--json'], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { summary: JSON.parse(stdout) as Record<string, unknown>, maxRssKib: Number(/maxrss=(\d+)/.exec(stderr)?.[1]) };
}

try {
  const sourceImages = join(work, 'images-source');
  const targetImages = join(work, 'images-target');
  const source = storeAt(sourceDdb, 'bench-backup-source', sourceImages);
  const target = storeAt(targetDdb, 'bench-backup-target', targetImages);
  await ensureTable(source.store.client, source.store.tableName);
  await ensureTable(target.store.client, target.store.tableName);

  let started = Date.now();
  const world = await seedBackupWorld(source, STORIES, {
    progress: (stories) => {
      if (stories % 500 === 0) console.error(`seeded ${stories} stories in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
  });
  const seedSeconds = (Date.now() - started) / 1000;

  const file = join(work, 'store.ndjson.gz');
  started = Date.now();
  const exported = await backup(source, sourceImages, ['export', file]);
  const exportSeconds = (Date.now() - started) / 1000;
  const items = (exported.summary.exported as { items: number }).items;
  // Said at once: the import of a large store may outlast the run.
  console.error(
    `exported ${items} item(s) (${statSync(file).size} bytes) in ${exportSeconds.toFixed(1)} s, peak RSS ${(exported.maxRssKib / 1024).toFixed(1)} MiB`,
  );
  started = Date.now();
  const imported = await backup(target, targetImages, ['import', file]);
  const importSeconds = (Date.now() - started) / 1000;

  const step = Math.max(1, Math.floor(STORIES / SAMPLE));
  const sample = world.slugs.filter((_slug, i) => i % step === 0).slice(0, SAMPLE);
  const now = Date.now();
  const original = await answersFor(source, world, sample, now);
  const restored = await answersFor(target, world, sample, now);
  const compareSeconds = (Date.now() - now) / 1000;
  const differing = [...original].filter(([key, body]) => restored.get(key) !== body).map(([key]) => key);

  console.log(
    JSON.stringify(
      {
        stories: STORIES,
        dynamodb_local: ON_DISK ? 'data dir' : 'in memory',
        seed_seconds: seedSeconds,
        exported: exported.summary.exported,
        file_bytes: statSync(file).size,
        export_seconds: exportSeconds,
        export_items_per_second: Math.round(items / exportSeconds),
        export_max_rss_mib: +(exported.maxRssKib / 1024).toFixed(1),
        import_seconds: importSeconds,
        import_items_per_second: Math.round(items / importSeconds),
        import_max_rss_mib: +(imported.maxRssKib / 1024).toFixed(1),
        sampled_stories: sample.length,
        answers_compared: original.size,
        answers_differing: differing.length,
        compare_seconds: compareSeconds,
        first_differing: differing.slice(0, 5),
      },
      null,
      2,
    ),
  );
  process.exitCode = differing.length === 0 && exported.maxRssKib < 200 * 1024 ? 0 : 1;
} finally {
  await sourceDdb.stop();
  await targetDdb.stop();
  rmSync(work, { recursive: true, force: true });
}
