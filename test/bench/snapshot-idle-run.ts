// A snapshot job run with nothing logged since the last snapshot (section 12): before, every run
// loaded the snapshot the pointer names to find nothing to apply; now it counts the log behind the
// pointer's watermark and ends there (src/app/search/search-snapshot-job.ts). Both measured in
// this process, on a table of their own with the size's snapshot, the reference first: the same
// job reading a pointer that carries no count, as every pointer did before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../src/app/context/app-context.ts';
import { snapshotName } from '../../src/app/search/search-snapshot-codec.ts';
import { runSnapshotJob, type SnapshotJobReport } from '../../src/app/search/search-snapshot-job.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { moveSearchPointer } from '../../src/store/search/search-pointer.ts';
import type { SearchSnapshots } from '../../src/store/search/search-snapshots.ts';
import { searchSnapshotsInDirectory } from '../../src/store/search/search-snapshots-dir.ts';

export interface JobRunCost {
  from: SnapshotJobReport['from'];
  wallMs: number;
  /** The process's CPU over the run, all threads (the job decodes on the libuv pool too). */
  cpuMs: number;
}

export interface IdleRuns {
  /** The run that loads the snapshot and finds nothing logged (the pointer has no count). */
  loads: JobRunCost;
  /** The run that counts the log and loads nothing. */
  counts: JobRunCost;
}

async function timedRun(ctx: AppContext, snapshots: SearchSnapshots): Promise<JobRunCost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = await runSnapshotJob(ctx, snapshots);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { from: report.from, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** `change` logs one change on the table (a published story): the run after it writes the pointer's count. */
export async function measureIdleRuns(base: AppContext, data: Uint8Array, change: (ctx: AppContext) => Promise<void>): Promise<IdleRuns> {
  const ctx: AppContext = { ...base, store: { ...base.store, tableName: `${base.store.tableName}-idle` } };
  const directory = mkdtempSync(join(tmpdir(), 'lorebook-idle-run-'));
  try {
    await ensureTable(ctx.store.client, ctx.store.tableName);
    const snapshots = searchSnapshotsInDirectory(directory);
    const watermark = ctx.store.now();
    const name = snapshotName(watermark, Math.random);
    await snapshots.put(name, data);
    await moveSearchPointer(ctx.store, undefined, { snapshot: name, watermark, written_at: watermark });
    const loads = await timedRun(ctx, snapshots);
    await change(ctx);
    // This run applies the change and writes the snapshot with the pointer's count.
    await runSnapshotJob(ctx, snapshots);
    const counts = await timedRun(ctx, snapshots);
    return { loads, counts };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
