// The search snapshot job as `npm start` runs it: in a process of its own (snapshot-job-in-process.ts
// forks one per run that loads the index) with a store client of its own, so loading, applying the
// log to and serialising a whole index never holds the server's event loop, and the memory it took
// goes back to the system when it ends. Answers the job's report (null: no snapshot store).
import { runSnapshotJob } from '../app/search/search-snapshot-job.ts';
import type { Config } from '../config.ts';
import { buildContext } from '../context.ts';
import { lowerThisProcessPriority, SNAPSHOT_JOB_NICENESS } from '../offload/thread-priority.ts';
import { answerJobProcess, jobProcessInput } from './job-process.ts';

lowerThisProcessPriority(SNAPSHOT_JOB_NICENESS);

const { config, endpoint } = await jobProcessInput<{ config: Config; endpoint: string | undefined }>();
const ctx = buildContext(config, endpoint);
const report = ctx.searchSnapshots === undefined ? null : await runSnapshotJob(ctx, ctx.searchSnapshots);
ctx.store.client.destroy();
await answerJobProcess(report);
