// The reference for bench:sitemap: /sitemap.xml as it was before the sitemap index (one urlset
// that walks the public feed newest first through list_stories, 100 stories a page, and stops at
// 5,000). Kept here, and only here, so every run measures the new sitemap against it.
import type { AppContext } from '../../src/app/context/app-context.ts';
import type { StorySummary } from '../../src/app/contract/story-shapes.ts';
import { MAX_LIST_LIMIT } from '../../src/app/queries/list-stories.contract.ts';
import { listStories } from '../../src/app/queries/list-stories.ts';
import { authorPath, storyPath } from '../../src/http/pages/page-format.ts';
import { xmlText } from '../../src/http/pages/xml-text.ts';

export const BEFORE_MAX_STORIES = 5_000;

export async function sitemapBefore(ctx: AppContext, baseUrl: string): Promise<string> {
  const stories: StorySummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await listStories(ctx, undefined, { limit: MAX_LIST_LIMIT, ...(cursor === undefined ? {} : { cursor }) });
    stories.push(...page.stories);
    cursor = page.cursor;
  } while (cursor !== undefined && stories.length < BEFORE_MAX_STORIES);

  const urls: Array<{ loc: string; lastmod?: string }> = [
    { loc: `${baseUrl}/`, ...(stories[0] === undefined ? {} : { lastmod: stories[0].published_at }) },
  ];
  for (const story of stories) urls.push({ loc: `${baseUrl}${storyPath(story.slug)}`, lastmod: story.published_at });
  const newestByAuthor = new Map<string, string>();
  for (const story of stories) if (!newestByAuthor.has(story.author.handle)) newestByAuthor.set(story.author.handle, story.published_at);
  for (const [handle, lastmod] of newestByAuthor) urls.push({ loc: `${baseUrl}${authorPath(handle)}`, lastmod });

  const entries = urls.map(
    (url) => `  <url><loc>${xmlText(url.loc)}</loc>${url.lastmod === undefined ? '' : `<lastmod>${xmlText(url.lastmod)}</lastmod>`}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}
