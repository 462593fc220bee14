// A Bluesky feed generator (docs/pages.md): the service is did:web of the public host, with its
// DID document at /.well-known/did.json; the feed record lives on the publisher's account
// (`npm run bsky:publish-feed`). getFeedSkeleton lists the announcement posts of listed stories,
// newest first (src/app/queries/announced-posts.ts); Bluesky's AppView hydrates them. The feed is
// the same for everyone, so the viewer's service-auth JWT is not needed and not read.
import type { Context, Hono } from 'hono';
import type { AppContext } from '../../app/app-context.ts';
import { announcedPosts, DEFAULT_SKELETON_LIMIT, MAX_SKELETON_LIMIT } from '../../app/queries/announced-posts.ts';
import type { FeedGeneratorConfig } from '../../config.ts';
import { isLorebookError } from '../../domain/errors.ts';
import { feedUri, serviceDid } from '../../domain/feed-generator.ts';
import type { HttpEnv } from '../http-env.ts';

export function didDocument(baseUrl: string): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: serviceDid(baseUrl),
    service: [{ id: '#bsky_fg', type: 'BskyFeedGenerator', serviceEndpoint: baseUrl }],
  };
}

/** An XRPC error answer: `{ error, message }` with a 4xx status, as atproto clients expect. */
const xrpcError = (c: Context<HttpEnv>, status: 400, error: string, message: string): Response => c.json({ error, message }, status);

export function mountFeedGenerator(
  app: Hono<HttpEnv>,
  deps: { ctx: AppContext; baseUrl: string; feed: FeedGeneratorConfig; visit: (c: Context<HttpEnv>) => Promise<void> },
): void {
  const uri = deps.feed.publisherDid === undefined ? undefined : feedUri(deps.feed.publisherDid, deps.feed.rkey);
  const document = didDocument(deps.baseUrl);
  app.get('/.well-known/did.json', (c) => c.json(document, 200, { 'Cache-Control': 'public, max-age=3600' }));

  app.get('/xrpc/app.bsky.feed.describeFeedGenerator', (c) =>
    c.json({ did: serviceDid(deps.baseUrl), feeds: uri === undefined ? [] : [{ uri }] }),
  );

  app.get('/xrpc/app.bsky.feed.getFeedSkeleton', async (c) => {
    await deps.visit(c);
    const feed = c.req.query('feed');
    if (uri === undefined)
      return xrpcError(
        c,
        400,
        'UnknownFeed',
        'This server publishes no feed yet: run `npm run bsky:publish-feed` and set BLUESKY_FEED_PUBLISHER_DID.',
      );
    if (feed !== uri) return xrpcError(c, 400, 'UnknownFeed', `Unknown feed "${feed ?? ''}"; this server serves ${uri}.`);
    const rawLimit = c.req.query('limit');
    const limit = rawLimit === undefined ? DEFAULT_SKELETON_LIMIT : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SKELETON_LIMIT) {
      return xrpcError(c, 400, 'InvalidRequest', `limit must be a whole number from 1 to ${MAX_SKELETON_LIMIT}, got "${rawLimit}".`);
    }
    const cursor = c.req.query('cursor');
    try {
      const page = await announcedPosts(deps.ctx, { limit, ...(cursor === undefined || cursor === '' ? {} : { cursor }) });
      return c.json({ feed: page.posts.map((post) => ({ post })), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) });
    } catch (error) {
      if (isLorebookError(error) && error.code === 'validation_failed')
        return xrpcError(c, 400, 'InvalidRequest', 'The cursor is not one this feed handed out; start again without it.');
      throw error;
    }
  });
}
