// `/sitemap.xml`: the home page, every public story and the pages of their authors. Walks the
// public feed a bounded number of pages (a sitemap file holds at most 50,000 URLs; lorebook stops
// far below, at MAX_SITEMAP_STORIES). Small enough to write out with proper XML escaping.
import type { AppContext } from '../../app/app-context.ts';
import { MAX_LIST_LIMIT } from '../../app/queries/list-stories.contract.ts';
import { listStories } from '../../app/queries/list-stories.ts';
import type { StorySummary } from '../../app/contract/story-shapes.ts';
import { authorPath, storyPath } from './page-format.ts';
import { xmlText } from './xml-text.ts';

export const MAX_SITEMAP_STORIES = 5_000;

export async function sitemap(ctx: AppContext, baseUrl: string): Promise<string> {
  const stories: StorySummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await listStories(ctx, undefined, { limit: MAX_LIST_LIMIT, ...(cursor === undefined ? {} : { cursor }) });
    stories.push(...page.stories);
    cursor = page.cursor;
  } while (cursor !== undefined && stories.length < MAX_SITEMAP_STORIES);

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
