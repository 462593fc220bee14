// The search snapshot job as `npm start` runs it: in a process of its own (snapshot-job-in-process.ts
// forks one per run that loads the index) with a store client of its own, so loading, applying the
// log to and serialising a whole index never holds the server's event loop, and the memory it took
// goes back to the system when it ends. Answers the job's report (null: no snapshot store).
import type { Config } from '../config.ts';
import { lowerThisProcessPriority, SNAPSHOT_JOB_NICENESS } from '../offload/thread-priority.ts';

// First, before the job's modules load (~0.4 s of CPU): on a busy machine the serving thread goes first.
lowerThisProcessPriority(SNAPSHOT_JOB_NICENESS);

const [{ runSnapshotJob }, { buildContext }, { serveJobProcess }] = await Promise.all([
  import('../app/search/search-snapshot-job.ts'),
  import('../context.ts'),
  import('./job-process.ts'),
]);
await serveJobProcess(async ({ config, endpoint }: { config: Config; endpoint: string | undefined }) => {
  const ctx = buildContext(config, endpoint);
  try {
    return ctx.searchSnapshots === undefined ? null : await runSnapshotJob(ctx, ctx.searchSnapshots);
  } finally {
    ctx.store.client.destroy();
  }
});
