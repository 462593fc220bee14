// standard.site verification (docs/pages.md § standard.site): `/.well-known/site.standard.publication`
// answers the at-uri of the site's publication as plain text, so readers' apps can tell the
// publication's records are this site's. Anonymous, counted against the IP budget like a page.
import type { Context, Hono } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import { sitePublicationUri } from '../../app/queries/site-publication.ts';
import type { HttpEnv } from '../http-env.ts';

export const PUBLICATION_WELL_KNOWN_PATH = '/.well-known/site.standard.publication';

export interface StandardSiteDeps {
  ctx: AppContext;
  baseUrl: string;
  visit(c: Context<HttpEnv>): Promise<void>;
}

export function mountStandardSite(app: Hono<HttpEnv>, { ctx, baseUrl, visit }: StandardSiteDeps): void {
  app.get(PUBLICATION_WELL_KNOWN_PATH, async (c) => {
    await visit(c);
    const uri = await sitePublicationUri(ctx, baseUrl);
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' };
    if (uri === undefined) {
      return c.text(
        'This site has no standard.site publication yet: it is written with the first story announced on Bluesky.\n',
        404,
        headers,
      );
    }
    return c.text(uri, 200, headers);
  });
}
