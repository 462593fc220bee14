// lorebook's Bluesky feed generator (docs/pages.md, design.md#feeds): the service is did:web of the
// public host, with its DID document at /.well-known/did.json; the feed records live on the
// publisher's account (`npm run bsky:publish-feed`): the main feed, one per configured tag, and
// "needs reproducers". getFeedSkeleton answers each from src/app/feeds/ (Bluesky's AppView
// hydrates the posts); only "needs reproducers" reads the viewer's service-auth JWT, to give each
// viewer its own order. sendInteractions is in feed-interactions.ts.
// Bluesky's AppView asks from a few shared addresses for every viewer, so a skeleton request with
// a service-auth JWT that checks out counts against the viewer DID's account budget, not the IP's;
// without one (or with one that does not check out) it counts against the IP like any page.
import type { Context, Hono } from 'hono';
import { createSigningKeyResolver } from '../../../integrations/bluesky/did-signing-key.ts';
import type { Outbound } from '../../../integrations/safe-fetch/outbound-settings.ts';
import type { AppContext } from '../../app/context/app-context.ts';
import { fetchBudgetOf, type SpendFetch } from '../../app/context/outbound-budget.ts';
import { accountRateSubject } from '../../app/context/rate-limit.ts';
import { DEFAULT_SKELETON_LIMIT, feedSkeleton, MAX_SKELETON_LIMIT } from '../../app/feeds/feed-skeleton.ts';
import type { FeedGeneratorConfig } from '../../config.ts';
import { type FeedDefinition, feedDefinitions, feedUri, NEEDS_REPRODUCERS_FEED, serviceDid } from '../../domain/feed-generator.ts';
import type { ServiceAuthClaims } from '../../domain/service-auth/service-jwt.ts';
import type { ClientAddress } from '../admission.ts';
import type { HttpEnv } from '../http-env.ts';
import { mountFeedInteractions } from './feed-interactions.ts';
import { type FeedViewer, feedViewer } from './feed-viewer.ts';
import { xrpcError, xrpcRefusal } from './xrpc-error.ts';

const GET_FEED_SKELETON = 'app.bsky.feed.getFeedSkeleton';

/** Who asks for a skeleton: the verified viewer, or why its JWT did not check out (none sent: neither). */
type SkeletonCaller = { claims: ServiceAuthClaims } | { refused: unknown } | undefined;

async function skeletonCaller(viewer: FeedViewer, authorization: string | undefined, spend: SpendFetch): Promise<SkeletonCaller> {
  try {
    const claims = await viewer(authorization, GET_FEED_SKELETON, spend);
    return claims === undefined ? undefined : { claims };
  } catch (refused) {
    // Kept, not thrown: only "needs reproducers" refuses it; the other feeds serve it as anonymous.
    return { refused };
  }
}

export function didDocument(baseUrl: string): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: serviceDid(baseUrl),
    service: [{ id: '#bsky_fg', type: 'BskyFeedGenerator', serviceEndpoint: baseUrl }],
  };
}

export function mountFeedGenerator(
  app: Hono<HttpEnv>,
  deps: {
    ctx: AppContext;
    baseUrl: string;
    feed: FeedGeneratorConfig;
    visit: (c: Context<HttpEnv>, subject?: string) => Promise<void>;
    clientAddress: ClientAddress;
    outbound: Outbound;
  },
): void {
  const { publisherDid } = deps.feed;
  const definitions = feedDefinitions(deps.feed.rkey, deps.feed.tags);
  /** Each served feed by its at-uri; none until the publisher's DID is configured. */
  const byUri = new Map<string, FeedDefinition>(
    publisherDid === undefined ? [] : definitions.map((definition) => [feedUri(publisherDid, definition.rkey), definition]),
  );
  const viewer = feedViewer(
    deps.baseUrl,
    createSigningKeyResolver({
      allowPrivateFetch: deps.feed.allowPrivateFetch === true,
      ...(deps.feed.plcDirectoryUrl === undefined ? {} : { plcDirectoryUrl: deps.feed.plcDirectoryUrl }),
      failureCacheMs: deps.outbound.settings.failureCacheMs,
      refreshFloorMs: deps.outbound.settings.cacheFloorMs,
      slots: deps.outbound.slots,
    }),
    () => deps.ctx.store.now(),
  );
  /** The DID documents a request makes lorebook fetch are paid for by its address (design.md#admission). */
  const spendOf = (c: Context<HttpEnv>): SpendFetch => fetchBudgetOf(deps.ctx, deps.outbound.settings, deps.clientAddress(c));
  const document = didDocument(deps.baseUrl);
  app.get('/.well-known/did.json', (c) => c.json(document, 200, { 'Cache-Control': 'public, max-age=3600' }));

  app.get('/xrpc/app.bsky.feed.describeFeedGenerator', (c) =>
    c.json({ did: serviceDid(deps.baseUrl), feeds: [...byUri.keys()].map((uri) => ({ uri })) }),
  );

  app.get(`/xrpc/${GET_FEED_SKELETON}`, async (c) => {
    try {
      // The JWT is checked before counting, so the budget is the viewer's; the check is bounded
      // (claims first, then the signing key from its cache or one fetch the address pays for).
      const caller = await skeletonCaller(viewer, c.req.header('authorization'), spendOf(c));
      const claims = caller !== undefined && 'claims' in caller ? caller.claims : undefined;
      await deps.visit(c, claims === undefined ? undefined : accountRateSubject(claims.iss));
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
      const personal = feed.id === NEEDS_REPRODUCERS_FEED;
      if (personal && caller !== undefined && 'refused' in caller) throw caller.refused;
      const page = await feedSkeleton(
        deps.ctx,
        feed,
        { limit, ...(cursor === undefined || cursor === '' ? {} : { cursor }) },
        personal ? claims?.iss : undefined,
      );
      return c.json(page);
    } catch (error) {
      const refusal = xrpcRefusal(c, error);
      if (refusal !== undefined) return refusal;
      // The app's handler logs it and answers an XRPC error too (src/http/problem.ts).
      throw error;
    }
  });

  mountFeedInteractions(app, { ctx: deps.ctx, feeds: definitions, viewer, served: byUri, spendOf });
}
