// The walk a ban or an unban makes over the account's reports and stories (design.md#bans), one item
// a step: each step reads the sweep on the account item, plans the moves for the next item after
// its cursor, and commits them in ONE transaction with the sweep moved on (conditioned on the
// steps read). So a crash loses at most the step in flight, which the next run plans again; two
// runners never both commit a step; and every move is conditioned on what it read, so a step
// planned twice moves nothing twice.
// A ban's first step waits for the grace (LOREBOOK_ACCOUNT_DELETION_GRACE_SECONDS, as deletion):
// writes are not conditioned on the account (write/write-once.ts), so one that read the account before
// the ban may commit after it, within one write attempt; past the grace the walk sees it.

import { toReportOnStory } from '../../../store/identity/account/index-items.ts';
import { advanceSweep, banSweepOf, finishSweep, type SweepKind } from '../../../store/identity/ban-items.ts';
import { nextAuthorStory, nextReportIndex } from '../../../store/identity/ban-queries.ts';
import { accountKey } from '../../../store/keys.ts';
import { readItem } from '../../../store/read-items.ts';
import { writeAtomically } from '../../../store/run-write.ts';
import { WriteCancelled } from '../../../store/write-cancelled.ts';
import type { AppContext } from '../../context/app-context.ts';
import { banMovesOn } from './reports.ts';
import { banStoryMoves } from './stories.ts';

export type SweepStep =
  | { kind: 'step'; phase: string; moved: number }
  | { kind: 'finished' }
  /** No sweep of this kind on the account (finished, or replaced by an unban's). */
  | { kind: 'none' }
  | { kind: 'waiting'; until: number }
  | { kind: 'raced' };

export async function runSweepStep(ctx: AppContext, account: string, kind: SweepKind): Promise<SweepStep> {
  const item = await readItem(ctx.store, accountKey(account));
  const sweep = banSweepOf(item);
  if (sweep?.kind !== kind) return { kind: 'none' };
  const startedAt = ctx.store.now();
  const bannedSince = Date.parse(String((item?.banned as { since?: string } | undefined)?.since));
  const until = bannedSince + ctx.config.accountDeletionGraceSeconds * 1000;
  if (kind === 'ban' && sweep.steps === 0 && startedAt < until) return { kind: 'waiting', until };
  try {
    if (sweep.phase === 'reports') {
      const next = await nextReportIndex(ctx.store, account, sweep.cursor);
      if (next === undefined) {
        await writeAtomically(ctx.store, [advanceSweep(account, sweep, { phase: 'stories' })]);
        return { kind: 'step', phase: 'reports', moved: 0 };
      }
      const report = toReportOnStory(next);
      // A drift report's index item: drift tallies are not counts a ban moves (design.md#bans).
      const moves = report.sha256 === undefined ? await banMovesOn(ctx, account, report.slug, kind, new Date(startedAt).toISOString()) : [];
      await writeAtomically(ctx.store, [...moves, advanceSweep(account, sweep, { phase: 'reports', cursor: String(next.SK) })]);
      return { kind: 'step', phase: 'reports', moved: moves.length };
    }
    const story = await nextAuthorStory(ctx.store, account, sweep.cursor);
    if (story === undefined) {
      await writeAtomically(ctx.store, [finishSweep(account, sweep)]);
      return { kind: 'finished' };
    }
    const moves = await banStoryMoves(ctx, account, story.slug, kind, new Date(startedAt).toISOString());
    await writeAtomically(ctx.store, [...moves, advanceSweep(account, sweep, { phase: 'stories', cursor: story.sortKey })]);
    return { kind: 'step', phase: 'stories', moved: moves.length };
  } catch (error) {
    if (error instanceof WriteCancelled) return { kind: 'raced' };
    throw error;
  }
}

/** Steps one runner takes at most: a ban walks one item a step, and a race means another runner moved it on. */
const MAX_STEPS = 1_000_000;

/** Runs the account's sweep of this kind to its end (waiting out the grace), with any number of runners at once. */
export async function runSweep(ctx: AppContext, account: string, kind: SweepKind): Promise<{ steps: number; moved: number }> {
  let steps = 0;
  let moved = 0;
  for (let round = 0; round < MAX_STEPS; round += 1) {
    const step = await runSweepStep(ctx, account, kind);
    if (step.kind === 'finished' || step.kind === 'none') return { steps, moved };
    if (step.kind === 'waiting') await ctx.sleep(Math.max(0, step.until - ctx.store.now()));
    if (step.kind === 'step') {
      steps += 1;
      moved += step.moved;
    }
  }
  return { steps, moved };
}
