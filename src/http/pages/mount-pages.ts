// The public, anonymous side of the hono app (docs/design.md#surfaces): pages, the Atom feed, the sitemap,
// the Bluesky feed generator and the standard.site verification endpoint. Pages never read a token
// (what they show is the same for everyone; a private story is a 404 here even to its author), and
// every visit counts against the caller's IP budget like any anonymous call. No page carries a
// script: the CSP says so.
import type { Context, Hono } from 'hono';
import type { Outbound } from '../../../integrations/safe-fetch/outbound-settings.ts';
import type { AppContext } from '../../app/context/app-context.ts';
import { consumeRateLimit, ipRateSubject, rateLimited, rateLimitHeaders } from '../../app/context/rate-limit.ts';
import { heldBecause } from '../../app/moderation/held-by.ts';
import { SITEMAP_MAX_URLS } from '../../app/queries/sitemap-parts.ts';
import { readStoryPage } from '../../app/queries/story-page.ts';
import type { FeedGeneratorConfig } from '../../config.ts';
import { isLorebookError } from '../../domain/errors.ts';
import type { ClientAddress } from '../admission.ts';
import { withCpuCaller } from '../cpu-caller.ts';
import type { HttpEnv } from '../http-env.ts';
import { atomFeed } from './atom-feed.ts';
import { authorPage } from './author-page.ts';
import { mountClaimPages } from './claim-routes.ts';
import { mountFeedGenerator } from './feed-generator.ts';
import { heldStoryPage } from './held-story-page.ts';
import { homePage } from './home-page.ts';
import { ATOM_PATH, type Html } from './layout.ts';
import { CSS_PATH } from './page-css.ts';
import { createRenderedBodies } from './rendered-bodies.ts';
import { mountSitemaps } from './sitemap-routes.ts';
import { mountStandardSite } from './standard-site-routes.ts';
import { deletedStoryPage, missingPage, storyPage, tombstonePage } from './story-page.ts';

export interface PagesDeps {
  ctx: AppContext;
  /** The public base URL (no trailing slash): canonical links, link cards, feeds, did:web. */
  baseUrl: string;
  clientAddress: ClientAddress;
  /** The feed generator's feed record; by default no feed is listed (docs/pages.md). */
  feedGenerator?: FeedGeneratorConfig;
  /** The outbound fetch budget and slots the feed generator's DID look-ups share (design.md#admission). */
  outbound: Outbound;
  /** URLs per sitemap file; default the protocol's 50,000 (a test makes it small to see the split). */
  sitemapMaxUrls?: number;
}

/**
 * No scripts, no frames, no forms; styles and images from this origin only: a story's image on
 * another site is a link, never loaded (design.md#slugs-dates-images), so no reader's address reaches its host.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE_HEADERS = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cache-Control': 'public, max-age=60',
};

/** An empty ?cursor= is the first page, as if it were left out. */
const cursorOf = (c: Context<HttpEnv>): string | undefined => c.req.query('cursor') || undefined;

const MISSING_STORY = 'There is no public story at this address. It may never have existed, or it is private.';

export function mountPages(app: Hono<HttpEnv>, deps: PagesDeps): void {
  const { ctx, baseUrl } = deps;
  const bodies = createRenderedBodies({ baseUrl });
  /** Counts a visit against the caller's IP, or against `subject` when the route knows who asks (a verified feed viewer). */
  const visit = async (c: Context<HttpEnv>, subject?: string): Promise<void> => {
    const decision = await consumeRateLimit(ctx, subject ?? ipRateSubject(deps.clientAddress(c) ?? 'unknown'));
    c.set('answerHeaders', { ...c.get('answerHeaders'), ...rateLimitHeaders(decision) });
    if (!decision.allowed) throw rateLimited(decision);
  };
  const page = async (c: Context<HttpEnv>, status: 200 | 400 | 404 | 410, body: Html | Promise<Html>): Promise<Response> =>
    c.html(await await body, status, PAGE_HEADERS);
  /** Unknown, private, or a malformed address: one 404 page, never a hint which. */
  const missing = (c: Context<HttpEnv>, error: unknown, text: string): Promise<Response> => {
    if (isLorebookError(error) && (error.code === 'not_found' || error.code === 'validation_failed'))
      return page(c, 404, missingPage(baseUrl, c.req.path, text));
    throw error;
  };

  /** A list's ?cursor= that this server never handed out (or from another list): start again. */
  const outOfDate = (c: Context<HttpEnv>, error: unknown): Promise<Response> => {
    if (isLorebookError(error) && error.code === 'validation_failed')
      return page(c, 400, missingPage(baseUrl, c.req.path, 'That page link is out of date. Start again from the newest stories.'));
    throw error;
  };

  app.get(CSS_PATH, async (c) =>
    c.body((await import('./page-stylesheet.ts')).PAGE_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    }),
  );

  app.get('/', async (c) => {
    await visit(c);
    try {
      return await page(c, 200, homePage(ctx, baseUrl, cursorOf(c)));
    } catch (error) {
      return outOfDate(c, error);
    }
  });

  app.get('/s/:name', async (c) => {
    await visit(c);
    const name = c.req.param('name');
    const raw = name.endsWith('.md');
    try {
      const story = await readStoryPage(ctx, raw ? name.slice(0, -'.md'.length) : name);
      if (raw) {
        // The author withdrew it: the text is gone for good, which 410 says to caches and crawlers.
        if (story.kind === 'withdrawn')
          return c.text('This story was withdrawn by its author.\n', 410, { 'X-Content-Type-Options': 'nosniff' });
        if (story.kind === 'deleted')
          return c.text('This story was deleted by its author.\n', 410, { 'X-Content-Type-Options': 'nosniff' });
        if (story.kind === 'held') return c.text(`${heldBecause(story.by)}\n`, 410, { 'X-Content-Type-Options': 'nosniff' });
        return c.body(story.story.markdown, 200, {
          'Content-Type': 'text/markdown; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'public, max-age=60',
        });
      }
      if (story.kind === 'withdrawn') return await page(c, 410, tombstonePage(story.slug, story.title, baseUrl));
      if (story.kind === 'deleted') return await page(c, 410, deletedStoryPage(story.slug, baseUrl));
      if (story.kind === 'held') return await page(c, 410, heldStoryPage(story.slug, story.by, baseUrl));
      return await page(
        c,
        200,
        storyPage(story.story, baseUrl, await bodies.html(story.story.markdown, withCpuCaller(ctx, c, deps.clientAddress, undefined))),
      );
    } catch (error) {
      if (raw && isLorebookError(error) && (error.code === 'not_found' || error.code === 'validation_failed'))
        return c.text(`${MISSING_STORY}\n`, 404);
      return missing(c, error, MISSING_STORY);
    }
  });

  mountClaimPages(app, { ctx, baseUrl, visit });

  app.get('/a/:handle', async (c) => {
    await visit(c);
    try {
      return await page(c, 200, authorPage(ctx, baseUrl, c.req.param('handle'), cursorOf(c)));
    } catch (error) {
      if (isLorebookError(error) && error.code === 'validation_failed') return outOfDate(c, error);
      return missing(c, error, 'There is no author by that name here.');
    }
  });

  app.get(ATOM_PATH, async (c) => {
    await visit(c);
    return c.body(await atomFeed(ctx, baseUrl), 200, {
      'Content-Type': 'application/atom+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    });
  });

  mountSitemaps(app, { ctx, baseUrl, visit, maxUrls: deps.sitemapMaxUrls ?? SITEMAP_MAX_URLS });

  mountStandardSite(app, { ctx, baseUrl, visit });

  mountFeedGenerator(app, {
    ctx,
    baseUrl,
    feed: deps.feedGenerator ?? { publisherDid: undefined, rkey: 'lorebook', tags: [] },
    visit,
    clientAddress: deps.clientAddress,
    outbound: deps.outbound,
  });
}
