// The search snapshot job as `npm start` runs it: in a process of its own (snapshot-job-in-process.ts
// starts one per run) with its own store client, every thread of it at the lowest CPU priority.
// A worker thread of the server's process was not enough: V8's platform threads, shared by every
// thread of a process and at the default priority, collected the job's heap (a whole index) beside
// the thread serving requests. Takes its config in one message, answers with the job's report and ends.
import { runSnapshotJob, type SnapshotJobReport } from '../app/search/search-snapshot-job.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { lowerEveryThreadsPriority, SNAPSHOT_JOB_NICENESS } from '../offload/thread-priority.ts';

export interface SnapshotJobRequest {
  config: Config;
  endpoint: string | undefined;
}

/** What the process sends back: the job's report (null: no snapshot store), or why it failed. */
export type SnapshotJobAnswer = { report: SnapshotJobReport | null } | { error: string };

lowerEveryThreadsPriority(SNAPSHOT_JOB_NICENESS);

process.once('message', async ({ config, endpoint }: SnapshotJobRequest) => {
  const ctx = buildContext(config, endpoint);
  let answer: SnapshotJobAnswer;
  try {
    answer = { report: ctx.searchSnapshots === undefined ? null : await runSnapshotJob(ctx, ctx.searchSnapshots) };
  } catch (error) {
    answer = { error: (error as Error).message ?? String(error) };
  } finally {
    ctx.store.client.destroy();
  }
  // Disconnected once the answer is written, the process ends: nothing else keeps it alive.
  process.send?.(answer, () => process.disconnect?.());
});
