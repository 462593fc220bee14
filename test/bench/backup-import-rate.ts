// `npm run bench:backup-rate [-- <items> [memory|disk|shm] [<batches in flight>]]` (BENCHMARKS.md,
// "Backup round trip at 5,000 stories"): how fast the backup import's writes (putItems: BatchWriteItem of 25, unprocessed items
// retried) go into DynamoDB Local, by where it keeps its data (in memory, a data dir on this
// disk, a data dir in /dev/shm) and by how many batches are in flight. Items of ~2 KB on the
// feed index, like a story's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import type { StoredItem } from '../../src/store/backup/backup-lines.ts';
import { putItems, WRITE_BATCH } from '../../src/store/backup/table-items.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';

const ITEMS = Number(process.argv[2] ?? 1_000);
const WHERE = process.argv[3] ?? 'disk';
const IN_FLIGHT = Number(process.argv[4] ?? 4);
const TABLE = 'bench-backup-rate';

const work = mkdtempSync(join(WHERE === 'shm' ? '/dev/shm' : tmpdir(), 'bench-backup-rate-'));
const ddb = await startDynamoDbLocal(WHERE === 'memory' ? {} : { dataDir: join(work, 'dynamodb') });
const client = createStoreClient({ endpoint: ddb.endpoint });
try {
  await ensureTable(client, TABLE);
  const batches: StoredItem[][] = [];
  for (let start = 0; start < ITEMS; start += WRITE_BATCH)
    batches.push(
      Array.from({ length: Math.min(WRITE_BATCH, ITEMS - start) }, (_, i) => ({
        PK: { S: `STORY#bench-${start + i}` },
        SK: { S: 'META' },
        GSI1PK: { S: 'FEED#2026-12' },
        GSI1SK: { S: `2026-12-01T00:00:00.000Z#bench-${start + i}` },
        body: { S: 'x'.repeat(2_000) },
      })),
    );
  const started = Date.now();
  let next = 0;
  const sender = async (): Promise<void> => {
    for (let b = next++; b < batches.length; b = next++) await putItems(client, TABLE, batches[b] as StoredItem[]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify({
      items: ITEMS,
      dynamodb_local: WHERE,
      batches_in_flight: IN_FLIGHT,
      seconds,
      items_per_second: Math.round(ITEMS / seconds),
    }),
  );
} finally {
  client.destroy();
  await ddb.stop();
  rmSync(work, { recursive: true, force: true });
}
