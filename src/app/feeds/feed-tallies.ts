// The show-more / show-less tallies of a page's stories in one feed: one BatchGetItem.
import { feedTallyKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { type FeedTally, toFeedTally } from '../../store/story/feed-tally-items.ts';
import type { AppContext } from '../context/app-context.ts';

export async function feedTallies(ctx: AppContext, feed: string, slugs: readonly string[]): Promise<Map<string, FeedTally>> {
  const keys = slugs.map((slug) => feedTallyKey(feed, slug));
  const items = await readItems(ctx.store, keys);
  return new Map(slugs.map((slug, index) => [slug, toFeedTally(pick(items, keys[index] as (typeof keys)[number]))]));
}
