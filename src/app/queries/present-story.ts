// The shapes readers see (../contract/story-shapes.ts). Built from META (never from the raw item,
// which carries keys and index attributes) and from the handles resolved for this read; counts
// are split into the outcome of reproductions and the answers to the check.
import { revealForbiddenChars as shown } from '../../domain/text-controls.ts';
import { establishedReproducers, reproductionCounts } from '../../store/story/reproduction-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { Caller } from '../context/app-context.ts';
import type { AuthorView, CheckCounts, StorySummary } from '../contract/story-shapes.ts';

export function authorView(meta: StoryMeta, handles: ReadonlyMap<string, string>): AuthorView {
  return { account: meta.author, handle: handles.get(meta.author) ?? meta.author };
}

export function checkCounts(meta: StoryMeta): CheckCounts {
  return { has_problem: meta.counts.has_problem, no_problem: meta.counts.no_problem };
}

export function presentSummary(meta: StoryMeta, handles: ReadonlyMap<string, string>, caller: Caller | undefined): StorySummary {
  const summary: StorySummary = {
    slug: meta.slug,
    // Text stored before a character was refused is shown with it made visible (design.md#untrusted-text).
    title: shown(meta.title),
    summary: shown(meta.summary),
    author: authorView(meta, handles),
    date: meta.date,
    published_at: meta.published_at,
    tags: meta.tags.map(shown),
    stack: meta.stack.map(shown),
    type: meta.type,
    status: meta.status,
    has_check: meta.has_check,
    counts: reproductionCounts(meta.counts),
    checks: checkCounts(meta),
    reproducers_count: establishedReproducers(meta),
    capability_tier: meta.capability?.tier ?? null,
    ...(meta.drift === undefined ? {} : { drift: { sha256: meta.drift.sha256, since: meta.drift.since } }),
  };
  if (caller !== undefined && caller.account === meta.author) {
    summary.hidden = meta.hidden;
    summary.visibility = meta.visibility;
  }
  return summary;
}
