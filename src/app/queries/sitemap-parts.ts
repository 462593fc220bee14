// What the sitemap index lists: one part per feed month that holds stories, newest month first,
// and more than one where a month holds more stories than a part may (numbered from 1, oldest
// stories first, see src/store/story/feed-month-keys.ts). Reads the months item and counts each
// month's index keys (keys only, never a Scan, never a story item).

import { feedMonthsKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { countFeedMonth } from '../../store/story/feed-month-keys.ts';
import { monthsOf } from '../../store/story/feed-months.ts';
import type { AppContext } from '../context/app-context.ts';

/** The sitemaps.org protocol's cap on the URLs of one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

/** Months counted at once: overlaps round trips without a burst on the index. */
const MONTHS_IN_FLIGHT = 4;

export interface SitemapPartRef {
  /** The feed month, `yyyy-mm`. */
  month: string;
  /** 1 for the month's oldest stories, counting up. */
  part: number;
}

/**
 * A part lists its stories and the pages of their authors, at most one author per story, so it
 * holds half the URL cap in stories: a part can never pass the cap, however many authors it has.
 */
export const storiesPerPart = (maxUrls: number): number => Math.max(1, Math.floor(maxUrls / 2));

export async function sitemapParts(ctx: AppContext, maxUrls: number): Promise<SitemapPartRef[]> {
  const months = monthsOf(await readItem(ctx.store, feedMonthsKey));
  const counts: number[] = [];
  for (let next = 0; next < months.length; next += MONTHS_IN_FLIGHT)
    counts.push(...(await Promise.all(months.slice(next, next + MONTHS_IN_FLIGHT).map((month) => countFeedMonth(ctx.store, month)))));
  const perPart = storiesPerPart(maxUrls);
  return months.flatMap((month, index) => {
    const parts = Math.ceil((counts[index] ?? 0) / perPart);
    return Array.from({ length: parts }, (_unused, part) => ({ month, part: part + 1 }));
  });
}
