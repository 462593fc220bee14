// Where the sitemap lives: the index at /sitemap.xml (what robots.txt names), the home page's
// sitemap, and one sitemap per feed month, `/sitemap/<yyyy-mm>.xml`, with `-p<n>.xml` for the
// further parts of a month that holds more stories than one part may.
import type { SitemapPartRef } from '../../app/queries/sitemap-parts.ts';

export const SITEMAP_INDEX_PATH = '/sitemap.xml';
export const SITEMAP_HOME_NAME = 'home.xml';
export const SITEMAP_DIR = '/sitemap';

/** Part numbers up to five digits: far past any month's parts (and bounded before any read). */
const PART_NAME = /^(\d{4}-(?:0[1-9]|1[0-2]))(?:-p([2-9]|[1-9]\d{1,4}))?\.xml$/;

export const sitemapPartPath = (ref: SitemapPartRef): string => `${SITEMAP_DIR}/${ref.month}${ref.part === 1 ? '' : `-p${ref.part}`}.xml`;

/** The part a file name under /sitemap/ names; undefined for any other name (part 1 has no -p1). */
export function parseSitemapPartName(name: string): SitemapPartRef | undefined {
  const match = PART_NAME.exec(name);
  if (match === null) return undefined;
  return { month: match[1] as string, part: match[2] === undefined ? 1 : Number(match[2]) };
}
