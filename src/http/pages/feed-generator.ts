// lorebook's Bluesky feed generator (docs/pages.md, design §17): the service is did:web of the
// public host, with its DID document at /.well-known/did.json; the feed records live on the
// publisher's account (`npm run bsky:publish-feed`): the main feed, one per configured tag, and
// "needs reproducers". getFeedSkeleton answers each from src/app/feeds/ (Bluesky's AppView
// hydrates the posts); only "needs reproducers" reads the viewer's service-auth JWT, to give each
// viewer its own order. sendInteractions is in feed-interactions.ts.
import type { Context, Hono } from 'hono';
import { createSigningKeyLookup } from '../../../integrations/bluesky/did-signing-key.ts';
import type { AppContext } from '../../app/app-context.ts';
import { DEFAULT_SKELETON_LIMIT, feedSkeleton, MAX_SKELETON_LIMIT } from '../../app/feeds/feed-skeleton.ts';
import type { FeedGeneratorConfig } from '../../config.ts';
import { feedDefinitions, feedUri, NEEDS_REPRODUCERS_FEED, serviceDid, type FeedDefinition } from '../../domain/feed-generator.ts';
import type { HttpEnv } from '../http-env.ts';
import { mountFeedInteractions } from './feed-interactions.ts';
import { feedViewer } from './feed-viewer.ts';
import { xrpcError, xrpcRefusal } from './xrpc-error.ts';

const GET_FEED_SKELETON = 'app.bsky.feed.getFeedSkeleton';

export function didDocument(baseUrl: string): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: serviceDid(baseUrl),
    service: [{ id: '#bsky_fg', type: 'BskyFeedGenerator', serviceEndpoint: baseUrl }],
  };
}

export function mountFeedGenerator(
  app: Hono<HttpEnv>,
  deps: { ctx: AppContext; baseUrl: string; feed: FeedGeneratorConfig; visit: (c: Context<HttpEnv>) => Promise<void> },
): void {
  const { publisherDid } = deps.feed;
  const definitions = feedDefinitions(deps.feed.rkey, deps.feed.tags);
  /** Each served feed by its at-uri; none until the publisher's DID is configured. */
  const byUri = new Map<string, FeedDefinition>(
    publisherDid === undefined ? [] : definitions.map((definition) => [feedUri(publisherDid, definition.rkey), definition]),
  );
  const viewer = feedViewer(
    deps.baseUrl,
    createSigningKeyLookup({
      allowPrivateFetch: deps.feed.allowPrivateFetch === true,
      ...(deps.feed.plcDirectoryUrl === undefined ? {} : { plcDirectoryUrl: deps.feed.plcDirectoryUrl }),
    }),
    () => deps.ctx.store.now(),
  );
  const document = didDocument(deps.baseUrl);
  app.get('/.well-known/did.json', (c) => c.json(document, 200, { 'Cache-Control': 'public, max-age=3600' }));

  app.get('/xrpc/app.bsky.feed.describeFeedGenerator', (c) =>
    c.json({ did: serviceDid(deps.baseUrl), feeds: [...byUri.keys()].map((uri) => ({ uri })) }),
  );

  app.get(`/xrpc/${GET_FEED_SKELETON}`, async (c) => {
    await deps.visit(c);
    const feedParam = c.req.query('feed');
    if (publisherDid === undefined)
      return xrpcError(
        c,
        400,
        'UnknownFeed',
        'This server publishes no feed yet: run `npm run bsky:publish-feed` and set BLUESKY_FEED_PUBLISHER_DID.',
      );
    const feed = byUri.get(feedParam ?? '');
    if (feed === undefined)
      return xrpcError(c, 400, 'UnknownFeed', `Unknown feed "${feedParam ?? ''}"; this server serves ${[...byUri.keys()].join(', ')}.`);
    const rawLimit = c.req.query('limit');
    const limit = rawLimit === undefined ? DEFAULT_SKELETON_LIMIT : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SKELETON_LIMIT) {
      return xrpcError(c, 400, 'InvalidRequest', `limit must be a whole number from 1 to ${MAX_SKELETON_LIMIT}, got "${rawLimit}".`);
    }
    const cursor = c.req.query('cursor');
    try {
      const claims = feed.id === NEEDS_REPRODUCERS_FEED ? await viewer(c.req.header('authorization'), GET_FEED_SKELETON) : undefined;
      const page = await feedSkeleton(deps.ctx, feed, { limit, ...(cursor === undefined || cursor === '' ? {} : { cursor }) }, claims?.iss);
      return c.json(page);
    } catch (error) {
      const refusal = xrpcRefusal(c, error);
      if (refusal !== undefined) return refusal;
      throw error;
    }
  });

  mountFeedInteractions(app, { ctx: deps.ctx, feeds: definitions, viewer, served: byUri });
}
