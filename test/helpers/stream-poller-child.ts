// A process of its own running the table-stream poller, for tests that kill it (SIGKILL: no
// cleanup runs). Each batch its consumer finishes is appended to OUT as one JSON line of the
// records' SKs; when the consumer reaches batch HOLD_AT (counted from 1), it writes a `holding`
// line and never returns, so the parent can kill it mid-batch at a known point.
import { appendFileSync } from 'node:fs';
import { createStoreClient, createStreamsClient } from '../../src/store/client.ts';
import { startTableStreamPoller } from '../../src/store/table-stream/table-stream.ts';

const need = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
};
const endpoint = need('ENDPOINT');
const out = need('OUT');
const holdAt = Number(process.env.HOLD_AT ?? '0');
let batches = 0;

startTableStreamPoller({
  client: createStoreClient({ endpoint }),
  streams: createStreamsClient({ endpoint }),
  tableName: need('TABLE'),
  checkpoint: { namespace: need('NAMESPACE') },
  batchSize: Number(need('BATCH_SIZE')),
  intervalMs: 50,
  log: (line) => process.stderr.write(`${line}\n`),
  async onRecords(records) {
    batches += 1;
    const sks = records.map((record) => record.dynamodb?.Keys?.SK?.S);
    if (batches === holdAt) {
      appendFileSync(out, `${JSON.stringify({ holding: sks })}\n`);
      // A pending promise alone keeps no process alive: a timer does, until the parent kills it.
      setInterval(() => {}, 60_000);
      await new Promise(() => {});
    }
    appendFileSync(out, `${JSON.stringify({ finished: sks })}\n`);
  },
});
