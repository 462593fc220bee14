// The sitemap (sitemaps.org 0.9) and robots.txt. /sitemap.xml is an index of sitemaps: the home
// page's, then one per feed month newest first (split into numbered parts past the URL cap), so
// every public story is listed exactly once however many there are. Each answer carries a
// strong ETag of its bytes, and an If-None-Match that names it is a 304 with no body.
import type { Context, Hono } from 'hono';
import { etag } from 'hono/etag';
import type { AppContext } from '../../app/context/app-context.ts';
import { newestPublishedAt } from '../../app/queries/sitemap-home.ts';
import { readSitemapPart } from '../../app/queries/sitemap-part.ts';
import { sitemapParts } from '../../app/queries/sitemap-parts.ts';
import { isLorebookError } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';
import { authorPath, storyPath } from './page-format.ts';
import { parseSitemapPartName, SITEMAP_DIR, SITEMAP_HOME_NAME, SITEMAP_INDEX_PATH, sitemapPartPath } from './sitemap-paths.ts';
import { sitemapIndexXml, urlsetXml } from './sitemap-xml.ts';

export interface SitemapDeps {
  ctx: AppContext;
  baseUrl: string;
  /** Counts the visit against the caller's anonymous budget (throws when it is spent). */
  visit(c: Context<HttpEnv>): Promise<void>;
  /** URLs per sitemap file: the protocol's 50,000 (SITEMAP_MAX_URLS), smaller in tests. */
  maxUrls: number;
}

/** An hour: crawlers come back daily at most, and a 304 costs them nothing but the request. */
const SITEMAP_HEADERS = {
  'Content-Type': 'application/xml; charset=utf-8',
  'Cache-Control': 'public, max-age=3600',
  'X-Content-Type-Options': 'nosniff',
};

const NO_SUCH_SITEMAP = `There is no such sitemap. ${SITEMAP_INDEX_PATH} lists them.\n`;

export function mountSitemaps(app: Hono<HttpEnv>, deps: SitemapDeps): void {
  const { ctx, baseUrl, visit, maxUrls } = deps;
  // Strong (not W/): the ETag is a digest of the exact bytes answered.
  app.use(SITEMAP_INDEX_PATH, etag());
  app.use(`${SITEMAP_DIR}/*`, etag());

  app.get(SITEMAP_INDEX_PATH, async (c) => {
    await visit(c);
    const [home, parts] = await Promise.all([newestPublishedAt(ctx), sitemapParts(ctx, maxUrls)]);
    // No lastmod on a month's part: the true one is its newest updated_at, which only reading
    // every story of the month would tell; a lastmod that misses edits would be worse than none.
    const sitemaps = [
      { loc: `${baseUrl}${SITEMAP_DIR}/${SITEMAP_HOME_NAME}`, lastmod: home },
      ...parts.map((part) => ({ loc: `${baseUrl}${sitemapPartPath(part)}` })),
    ];
    return c.body(sitemapIndexXml(sitemaps), 200, SITEMAP_HEADERS);
  });

  app.get(`${SITEMAP_DIR}/:name`, async (c) => {
    await visit(c);
    const name = c.req.param('name');
    if (name === SITEMAP_HOME_NAME)
      return c.body(urlsetXml([{ loc: `${baseUrl}/`, lastmod: await newestPublishedAt(ctx) }]), 200, SITEMAP_HEADERS);
    const ref = parseSitemapPartName(name);
    if (ref === undefined) return c.text(NO_SUCH_SITEMAP, 404);
    try {
      const part = await readSitemapPart(ctx, ref, maxUrls);
      const urls = [
        ...part.stories.map((story) => ({ loc: `${baseUrl}${storyPath(story.name)}`, lastmod: story.lastmod })),
        ...part.authors.map((author) => ({ loc: `${baseUrl}${authorPath(author.name)}`, lastmod: author.lastmod })),
      ];
      return c.body(urlsetXml(urls), 200, SITEMAP_HEADERS);
    } catch (error) {
      if (isLorebookError(error) && error.code === 'not_found') return c.text(NO_SUCH_SITEMAP, 404);
      throw error;
    }
  });

  app.get('/robots.txt', (c) => c.text(`User-agent: *\nAllow: /\nSitemap: ${baseUrl}${SITEMAP_INDEX_PATH}\n`));
}
