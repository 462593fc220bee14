// The home page's lastmod in the sitemap: when the newest public story was published (the home
// page lists the newest stories first). One months read and one single-entry Query.

import { feedMonthsKey, feedPartition } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { monthsOf } from '../../store/story/feed-months.ts';
import { queryIndex } from '../../store/story/story-index-query.ts';
import type { AppContext } from '../context/app-context.ts';

/** The newest feed entry's published_at, or undefined while the feed is empty. */
export async function newestPublishedAt(ctx: AppContext): Promise<string | undefined> {
  const [month] = monthsOf(await readItem(ctx.store, feedMonthsKey));
  if (month === undefined) return undefined;
  const slice = await queryIndex(ctx.store, 'feed', { partition: feedPartition(month), limit: 1 });
  return slice.entries[0]?.sort.split('#')[0];
}
