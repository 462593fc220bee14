// One bounded batch of the capability re-scan job (docs/capability.md, "The re-scan"): one page of
// the walk over every story's META from where the job got to, each stale story in it re-scanned
// (story.ts), the missing capability records of its current listed stories created
// (record-missing.ts), then the job's position moved past the page. The sweeper runs one batch a
// minute, `npm start` the same, and `npm run capability:rescan` batch after batch. A batch that
// dies before moving the position is simply done again: every re-scan is twice-safe.
import { SCANNER_VERSION } from '../../../domain/capability/scanner-version.ts';
import { storyKey } from '../../../store/keys.ts';
import { readItem } from '../../../store/read-items.ts';
import { writeAtomically } from '../../../store/run-write.ts';
import { moveRescanPosition, type RescanPosition, rescanJobKey, toRescanPosition } from '../../../store/story/rescan-job-items.ts';
import { scanStoryCapabilities } from '../../../store/story/story-capability-scan.ts';
import { WriteCancelled } from '../../../store/write-cancelled.ts';
import type { AppContext } from '../../context/app-context.ts';
import { recordMissing } from '../record-missing.ts';
import { needsRescan, type RescanResult, type RescanScan, rescanStory } from './story.ts';

/** Items one batch reads (of every kind: a story is at least META, BODY and REV#1, so at most a third are stories to scan). */
export const DEFAULT_RESCAN_BATCH = 1000;
export const MAX_RESCAN_BATCH = 1000;
/**
 * Stale stories one batch re-scans at most, and the time it may spend on them: each is a parse and
 * a scan of up to 64 KiB on the worker (milliseconds for most stories, seconds for the costliest).
 * Past either, the position stops at the last story re-scanned, so a batch stays inside the
 * sweeper's 120 s and every batch moves on by at least one story: a page of costly stories can
 * never time the sweeper out run after run.
 */
export const DEFAULT_RESCAN_STORIES = 100;
export const DEFAULT_RESCAN_BUDGET_MS = 60_000;

export interface RescanBatchOptions {
  /** The version to bring stories to: the running scanner's, unless a test runs a version bump. */
  scannerVersion?: string;
  /** Items the batch's page reads, 1–MAX_RESCAN_BATCH. */
  limit?: number;
  /** Say which stories are stale, write nothing, move nothing. */
  dryRun?: boolean;
  /** Stale stories re-scanned at most (DEFAULT_RESCAN_STORIES). */
  maxStories?: number;
  /** Once this much time has gone on re-scans, no further story is started (DEFAULT_RESCAN_BUDGET_MS). */
  budgetMs?: number;
  /** Start here instead of the stored position (a dry run's next page, a restarted walk). */
  from?: RescanPosition;
  scan?: RescanScan;
}

export interface RescanBatchReport {
  scanner_version: string;
  from: RescanPosition;
  /** Where the next batch starts; `end` once the walk has passed the last story. */
  next: RescanPosition;
  looked_at: number;
  stories: number;
  /** Stale stories in the page: re-scanned, or in a dry run only named (outcome `stale`). */
  results: (RescanResult | { slug: string; outcome: 'stale'; from_version?: string })[];
  /** Current, listed stories whose missing capability record the batch created (none in a dry run). */
  recorded: string[];
  /** False when another job moved the position first (its batch covered the same ground), or in a dry run. */
  moved: boolean;
}

export async function rescanBatch(ctx: AppContext, options: RescanBatchOptions = {}): Promise<RescanBatchReport> {
  const scannerVersion = options.scannerVersion ?? SCANNER_VERSION;
  const limit = options.limit ?? DEFAULT_RESCAN_BATCH;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESCAN_BATCH)
    throw new Error(`a re-scan batch reads 1 to ${MAX_RESCAN_BATCH} items`);
  const stored = toRescanPosition(await readItem(ctx.store, rescanJobKey(scannerVersion)));
  const from = options.from ?? stored;
  const base = { scanner_version: scannerVersion, from };
  if (from.at === 'end') return { ...base, next: from, looked_at: 0, stories: 0, results: [], recorded: [], moved: false };

  const page = await scanStoryCapabilities(ctx.store, from.at === 'key' ? from.key : undefined, limit);
  const maxStories = options.maxStories ?? DEFAULT_RESCAN_STORIES;
  const deadline = Date.now() + (options.budgetMs ?? DEFAULT_RESCAN_BUDGET_MS);
  const results: RescanBatchReport['results'] = [];
  // Past the last story handled when the batch is full: a Scan resumes after any key it returned.
  let stoppedAt: RescanPosition | undefined;
  const current: typeof page.stories = [];
  for (const story of page.stories) {
    if (!needsRescan(story.scanner_version, scannerVersion)) {
      current.push(story);
      continue;
    }
    if (results.length === maxStories || (results.length > 0 && Date.now() >= deadline)) {
      stoppedAt = { at: 'key', key: storyKey(results[results.length - 1]?.slug ?? story.slug) };
      break;
    }
    const result = options.dryRun
      ? {
          slug: story.slug,
          outcome: 'stale' as const,
          ...(story.scanner_version === undefined ? {} : { from_version: story.scanner_version }),
        }
      : await rescanStory(ctx, story.slug, scannerVersion, options.scan);
    results.push(result);
  }
  const next: RescanPosition = stoppedAt ?? (page.next === undefined ? { at: 'end' } : { at: 'key', key: page.next });
  const report = { ...base, next, looked_at: page.looked_at, stories: page.stories.length, results };
  if (options.dryRun) return { ...report, recorded: [], moved: false };
  const recorded = await recordMissing(ctx, current);
  return { ...report, recorded, moved: await movePosition(ctx, scannerVersion, stored, next) };
}

async function movePosition(ctx: AppContext, scannerVersion: string, read: RescanPosition, next: RescanPosition): Promise<boolean> {
  try {
    await writeAtomically(ctx.store, [moveRescanPosition(scannerVersion, read, next)]);
    return true;
  } catch (error) {
    if (error instanceof WriteCancelled) return false;
    throw error;
  }
}

/** One line for a log: what a batch did. */
export function describeBatch(report: RescanBatchReport): string {
  const count = (outcome: string) => report.results.filter((result) => result.outcome === outcome).length;
  const parts = [`${report.looked_at} item(s) read, ${report.stories} stor(ies), ${report.results.length} stale`];
  for (const outcome of ['rescanned', 'current', 'edited', 'gone', 'unreadable', 'stale']) {
    const n = count(outcome);
    if (n > 0) parts.push(`${n} ${outcome}`);
  }
  if (report.recorded.length > 0) parts.push(`${report.recorded.length} capability record(s) created`);
  return `${parts.join(', ')}${report.next.at === 'end' ? '; walk finished' : ''}`;
}
