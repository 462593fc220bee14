// `npm run sweep -- --backlog` (docs/design.md#announcing-resumes): posts the announcements set aside as too old,
// on purpose, oldest first, one every `paceMs` so a long backlog stays within Bluesky's rate
// limits. Each story is first taken back onto the queue (only while it is still set aside, so of
// two runs at once one takes it) and then announced through the usual claim, so it is posted
// exactly once however many runs, sweeps or workers meet it. A second run finds nothing.
import type { AppContext } from '../../app/context/app-context.ts';
import { setAsideAnnouncements, takeBackFromBacklog } from '../../store/story/announce/backlog.ts';
import type { Announcer } from './announcer.ts';
import { writeIfStillSo } from './fenced-write.ts';
import type { AnnounceOutcome, AnnounceResult } from './outcome.ts';
import { announceStory } from './story.ts';
import { ANNOUNCING_OFF } from './sweeper.ts';

export const DEFAULT_BACKLOG_PACE_MS = 30_000;
const PAGE = 100;

export interface BacklogOptions {
  /** Only stories owed since this time (ISO) or later. */
  since?: string;
  /** Stories to post at most in this run. */
  limit: number;
  /** The wait between two stories. */
  paceMs: number;
  /** How the run waits (tests need no injection: a small pace is enough). */
  sleep?: (ms: number) => Promise<void>;
  onStory?: (result: AnnounceResult, index: number) => void;
}

export interface BacklogReport {
  /** Stories taken back from the backlog by this run. */
  taken: number;
  outcomes: Partial<Record<AnnounceOutcome, number>>;
  results: AnnounceResult[];
  /** Why the run stopped before the end of the backlog, if it did. */
  stopped?: string;
}

/** The most `--backlog --list` shows in one run (one Query of the queue's index). */
export const MAX_BACKLOG_LIST = 1000;

export interface SetAside {
  slug: string;
  owed_since: string;
}

/** The stories set aside as too old, oldest first (owed since `since` or later): what `--backlog` would post. Reads only. */
export async function listBacklog(ctx: AppContext, since: string | undefined, limit: number): Promise<SetAside[]> {
  const entries = await setAsideAnnouncements(ctx.store, since, Math.min(limit, MAX_BACKLOG_LIST));
  return entries.map((entry) => ({ slug: entry.slug, owed_since: entry.dueAt }));
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function postBacklog(ctx: AppContext, announcer: Announcer, options: BacklogOptions): Promise<BacklogReport> {
  const report: BacklogReport = { taken: 0, outcomes: {}, results: [] };
  await ctx.refreshSettings?.();
  if (!ctx.config.announcing) return { ...report, stopped: ANNOUNCING_OFF };
  const sleep = options.sleep ?? wait;
  const seen = new Set<string>();
  while (report.taken < options.limit) {
    const page = (await setAsideAnnouncements(ctx.store, options.since, PAGE)).filter((entry) => !seen.has(entry.slug));
    if (page.length === 0) break;
    for (const entry of page) {
      if (report.taken >= options.limit) break;
      seen.add(entry.slug);
      if (report.taken > 0) await sleep(options.paceMs);
      // Refused: another run (or an edit that re-queued it) took it meanwhile; it is not ours to post.
      if (!(await writeIfStillSo(ctx.store, [takeBackFromBacklog(entry.slug, new Date(ctx.store.now()).toISOString())]))) continue;
      const result = await announceStory(ctx, announcer, entry.slug);
      report.taken += 1;
      report.results.push(result);
      report.outcomes[result.outcome] = (report.outcomes[result.outcome] ?? 0) + 1;
      options.onStory?.(result, report.taken - 1);
      const kind = result.failure?.kind;
      if (kind === 'credentials' || kind === 'rate_limited') {
        // What is left stays set aside; the story taken back is retried by the sweeper on its backoff.
        report.stopped = kind === 'credentials' ? 'the account refused the app password' : 'rate limited';
        return report;
      }
    }
  }
  return report;
}
