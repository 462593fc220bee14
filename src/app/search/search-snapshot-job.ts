// The snapshot job (docs/design.md#search), run by the sweeper Lambda every minute and by a timer
// under `npm start`: load the snapshot the pointer names (or build the first index from the feed
// index when there is none), apply the change log since its watermark, and when the index changed
// (or the snapshot is a day old, so the bucket's lifecycle rule never takes the one in use) write
// a new snapshot under a name of its own and move the pointer from the version it read, forward
// only. Twice-safe: of two jobs at once one moves the pointer, the other's object is left unnamed;
// a job killed before the move changed nothing, and the next run starts again from the pointer.
// A run first counts the log behind the pointer's watermark. When it holds at most
// `searchSnapshotAfterEntries` (LOREBOOK_SEARCH_SNAPSHOT_AFTER_ENTRIES) entries more than the
// snapshot was written with, the run ends without loading the snapshot (a load took 24 s of CPU at
// 100k stories, BENCHMARKS.md §12): every instance replays the log from the snapshot's own
// watermark anyway, and that many entries cost it a few batched reads at its first search.

import { readSearchLog, SEARCH_LOG_OVERLAP_MS, SEARCH_LOG_REPLAYABLE_MS } from '../../store/search/search-log.ts';
import { moveSearchPointer, readSearchPointer, type SearchPointer } from '../../store/search/search-pointer.ts';
import type { SearchSnapshots } from '../../store/search/search-snapshots.ts';
import type { AppContext } from '../context/app-context.ts';
import { applySearchLog, buildFromFeed, type LogApplied, startOfLog } from './search-index-feed.ts';
import { decodeSnapshot, encodeSnapshot, snapshotName } from './search-snapshot-codec.ts';
import { createStoryIndex, type StoryIndex } from './story-index.ts';

/** An unchanged index is still written again after a day (the bucket keeps old objects for a week). */
export const SNAPSHOT_REWRITE_MS = 24 * 60 * 60 * 1000;
/** Log entries one job applies; a larger backlog is the next run's. */
const MAX_LOG_ENTRIES = 50_000;

export interface SnapshotJobReport {
  /** Where the index started from; `log` when the log showed too little new since the pointer's snapshot to load it. */
  from: 'snapshot' | 'feed' | 'log';
  /** With `from: 'log'`: the entries logged since the snapshot, left to the instances' replay. */
  left?: number;
  /** Stories in the index; undefined when none was loaded. */
  stories: number | undefined;
  /** Log entries applied, and how many stories they changed. */
  logEntries: number;
  changed: number;
  /** The new snapshot's name, when one was written; `moved` says whether the pointer names it. */
  written?: string;
  moved: boolean;
}

export interface SnapshotJobHooks {
  /** Between writing the object and moving the pointer: where a test injects a killed job. */
  beforeMove?: () => Promise<void>;
}

export async function runSnapshotJob(
  ctx: AppContext,
  snapshots: SearchSnapshots,
  hooks: SnapshotJobHooks = {},
): Promise<SnapshotJobReport> {
  const pointer = await readSearchPointer(ctx.store);
  const leftToLog = await endsAtTheLog(ctx, pointer);
  if (leftToLog !== undefined) return leftToLog;
  const named = pointer === undefined ? undefined : await loadNamed(snapshots, pointer);
  // A snapshot older than the log's memory (no job ran for two days) cannot be replayed to now.
  const loaded = named !== undefined && ctx.store.now() - named.watermark <= SEARCH_LOG_REPLAYABLE_MS ? named : undefined;
  let index: StoryIndex;
  let watermark: number;
  if (loaded === undefined) {
    // Changes made while the feed is walked are in the log from here on, and replayed below.
    watermark = ctx.store.now();
    index = createStoryIndex();
    await buildFromFeed(ctx, index);
  } else {
    ({ index, watermark } = loaded);
  }
  const log = await applySearchLog(ctx, index, startOfLog(watermark), { maxEntries: MAX_LOG_ENTRIES });
  const report: SnapshotJobReport = {
    from: loaded === undefined ? 'feed' : 'snapshot',
    stories: index.size,
    logEntries: log.entries,
    changed: log.changed,
    moved: false,
  };
  if (pointer !== undefined && loaded !== undefined && log.changed === 0 && !rewriteDue(ctx, pointer)) {
    // Entries that changed nothing (a batch delivered again, a private story): the same snapshot, named
    // with the new watermark and count, so the next run need not load it again to find that out.
    if (log.complete) {
      const { snapshot, written_at } = pointer;
      await moveSearchPointer(ctx.store, pointer, {
        snapshot,
        written_at,
        watermark: log.position.watermark,
        overlap_entries: overlapEntries(log),
      });
    }
    return report;
  }

  const name = snapshotName(log.position.watermark, ctx.random);
  await snapshots.put(name, await encodeSnapshot(index, log.position.watermark));
  report.written = name;
  await hooks.beforeMove?.();
  report.moved = await moveSearchPointer(ctx.store, pointer, {
    snapshot: name,
    watermark: log.position.watermark,
    written_at: ctx.store.now(),
    ...(log.complete ? { overlap_entries: overlapEntries(log) } : {}),
  });
  // The one named before stays too: an instance may be loading it right now.
  if (report.moved) await snapshots.prune(pointer === undefined ? [name] : [name, pointer.snapshot]);
  else await snapshots.remove(name);
  return report;
}

/**
 * A run's report when it would end after counting the log (too little new since the pointer's
 * snapshot to load it); undefined when a run would load. Reads the pointer and at most a few
 * hundred log entries: `npm start` asks it on the serving thread before it starts a job thread.
 */
export async function snapshotJobEndsAtTheLog(ctx: AppContext): Promise<SnapshotJobReport | undefined> {
  return endsAtTheLog(ctx, await readSearchPointer(ctx.store));
}

async function endsAtTheLog(ctx: AppContext, pointer: SearchPointer | undefined): Promise<SnapshotJobReport | undefined> {
  const left = pointer === undefined ? undefined : await loggedSince(ctx, pointer, ctx.config.searchSnapshotAfterEntries);
  return left === undefined ? undefined : { from: 'log', left, stories: undefined, logEntries: 0, changed: 0, moved: false };
}

const rewriteDue = (ctx: AppContext, pointer: SearchPointer): boolean => ctx.store.now() - pointer.written_at >= SNAPSHOT_REWRITE_MS;

/**
 * The entries logged since the pointer's snapshot when there are at most `afterEntries` of them;
 * undefined when there are more, or the snapshot is due its daily rewrite (which comes a day before
 * the log forgets its watermark), or the pointer has no count. The log is read from the watermark
 * less the overlap, where the snapshot was written with `overlap_entries`: entries are only added
 * there until they expire, two days on, so the count past those is the count logged since. Reads
 * at most one entry more than that.
 */
async function loggedSince(ctx: AppContext, pointer: SearchPointer, afterEntries: number): Promise<number | undefined> {
  const expected = pointer.overlap_entries;
  if (expected === undefined || rewriteDue(ctx, pointer)) return undefined;
  const read = await readSearchLog(ctx.store, pointer.watermark - SEARCH_LOG_OVERLAP_MS, expected + afterEntries + 1);
  const since = read.entries.length - expected;
  return since >= 0 && since <= afterEntries ? since : undefined;
}

/** The entries a complete read saw from its new watermark less the overlap on: what the next run expects there. */
function overlapEntries(log: LogApplied): number {
  const since = log.position.watermark - SEARCH_LOG_OVERLAP_MS;
  return [...log.position.applied.values()].filter((atMs) => atMs >= since).length;
}

/** The named snapshot, or undefined when it is missing or of another format (then the feed rebuilds the index). */
async function loadNamed(
  snapshots: SearchSnapshots,
  pointer: SearchPointer,
): Promise<{ index: StoryIndex; watermark: number } | undefined> {
  const data = await snapshots.get(pointer.snapshot);
  return data === undefined ? undefined : await decodeSnapshot(data);
}
