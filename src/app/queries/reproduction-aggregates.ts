// The aggregates of one story's counted reproduction reports (design.md#aggregates): read only when the story
// has enough counted reproducers for any figure to show, folded page by page.
import { AggregateTally, MIN_REPORTS_PER_FIGURE, type ReproductionAggregates } from '../../domain/reproduction-aggregates.ts';
import { forEachReproductionFacts } from '../../store/story/reproduction-facts-query.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';

export async function readReproductionAggregates(ctx: AppContext, meta: StoryMeta): Promise<ReproductionAggregates> {
  // `reproducers` lists the counted reporters only: with fewer than the threshold no figure can
  // show, so most stories cost no read at all.
  if (meta.reproducers.length < MIN_REPORTS_PER_FIGURE) return {};
  const tally = new AggregateTally();
  await forEachReproductionFacts(ctx.store, meta.slug, (facts) => tally.add(facts));
  return tally.summary();
}
