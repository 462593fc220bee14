// The search snapshot job as `npm start` runs it: in a worker thread with a store client of its
// own (snapshot-job-in-thread.ts starts one per run), so loading, applying the log to and
// serialising a whole index never holds the server's event loop. Posts the job's report (null: no snapshot store) and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { runSnapshotJob } from '../app/search/search-snapshot-job.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { lowerThisThreadsPriority, SNAPSHOT_JOB_NICENESS } from '../offload/thread-priority.ts';

lowerThisThreadsPriority(SNAPSHOT_JOB_NICENESS);

const { config, endpoint } = workerData as { config: Config; endpoint: string | undefined };
const ctx = buildContext(config, endpoint);
try {
  parentPort?.postMessage(ctx.searchSnapshots === undefined ? null : await runSnapshotJob(ctx, ctx.searchSnapshots));
} finally {
  ctx.store.client.destroy();
}
