// The at-uri of the site's standard.site publication (docs/design.md#standard-site), for
// `/.well-known/site.standard.publication`: the one the announcer last wrote for this site URL,
// or undefined before it has written one (or when it was written for another URL).
import { readPublication } from '../../store/site-publication.ts';
import type { AppContext } from '../context/app-context.ts';

export async function sitePublicationUri(ctx: AppContext, siteUrl: string): Promise<string | undefined> {
  const stored = await readPublication(ctx.store);
  return stored?.url === siteUrl ? stored.uri : undefined;
}
