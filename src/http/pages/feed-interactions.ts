// POST /xrpc/app.bsky.feed.sendInteractions (design.md#feeds): show more / show less from a viewer,
// sent by Bluesky with the viewer's service-auth JWT (required here: a vote is the viewer's).
// In order: the JWT (a DID document it needs is paid for by the request's address, design.md#admission),
// the viewer's rate limit (its DID's budget: interactions arrive through shared PDS addresses),
// and only then the body, JSON of at most MAX_INTERACTIONS_BODY_BYTES, and the use case: a
// stranger gets no body buffered. Every refusal is an XRPC error and writes nothing (the rate window apart).
import type { Context, Hono } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import type { SpendFetch } from '../../app/context/outbound-budget.ts';
import { accountRateSubject, consumeRateLimit, rateLimited, rateLimitHeaders } from '../../app/context/rate-limit.ts';
import { recordInteractions } from '../../app/feeds/record-interactions.ts';
import { isLorebookError, LorebookError, payloadTooLarge } from '../../domain/errors.ts';
import type { FeedDefinition } from '../../domain/feed-generator.ts';
import { badBody, mediaType, parseJsonObject, readBodyBytes } from '../body.ts';
import type { HttpEnv } from '../http-env.ts';
import type { FeedViewer } from './feed-viewer.ts';
import { xrpcError, xrpcRefusal } from './xrpc-error.ts';

const SEND_INTERACTIONS = 'app.bsky.feed.sendInteractions';
/** 500 interactions of a few hundred bytes each fit with room to spare. */
const MAX_INTERACTIONS_BODY_BYTES = 256 * 1024;

export function mountFeedInteractions(
  app: Hono<HttpEnv>,
  deps: {
    ctx: AppContext;
    feeds: readonly FeedDefinition[];
    viewer: FeedViewer;
    served: ReadonlyMap<string, FeedDefinition>;
    spendOf: (c: Context<HttpEnv>) => SpendFetch;
  },
): void {
  app.post(`/xrpc/${SEND_INTERACTIONS}`, async (c) => {
    try {
      if (deps.served.size === 0)
        return xrpcError(c, 400, 'UnknownFeed', 'This server publishes no feed yet, so it takes no interactions.');
      const authorization = c.req.header('authorization');
      if (authorization === undefined) {
        throw new LorebookError(
          'unauthenticated',
          'sendInteractions needs the viewer\'s service-auth JWT ("Authorization: Bearer <jwt>").',
          {
            details: { reason: 'AuthenticationRequired' },
          },
        );
      }
      const claims = await deps.viewer(authorization, SEND_INTERACTIONS, deps.spendOf(c));
      if (claims === undefined) throw new Error('a present Authorization header always yields claims or a refusal');
      const decision = await consumeRateLimit(deps.ctx, accountRateSubject(claims.iss));
      c.set('answerHeaders', { ...c.get('answerHeaders'), ...rateLimitHeaders(decision) });
      if (!decision.allowed) throw rateLimited(decision);
      if (mediaType(c.req.header('content-type')) !== 'application/json')
        throw badBody('The body must be JSON (Content-Type: application/json).');
      const bytes = await readBodyBytes(c.req.raw, MAX_INTERACTIONS_BODY_BYTES, () =>
        payloadTooLarge(`The body is larger than ${MAX_INTERACTIONS_BODY_BYTES / 1024} KiB; send fewer interactions per call.`, {
          limit_bytes: MAX_INTERACTIONS_BODY_BYTES,
        }),
      );
      const body = parseJsonObject(Buffer.from(bytes).toString('utf8'));
      if (typeof body.feed === 'string' && !deps.served.has(body.feed))
        return xrpcError(c, 400, 'UnknownFeed', `Unknown feed "${body.feed}"; this server serves ${[...deps.served.keys()].join(', ')}.`);
      await recordInteractions(deps.ctx, { viewer: claims.iss, jti: claims.jti, feeds: deps.feeds }, body);
      return c.json({});
    } catch (error) {
      // The jti is the op_id: the viewer's client knows no op_id, so say it in its terms.
      if (isLorebookError(error) && error.code === 'idempotency_key_reused')
        return xrpcError(
          c,
          400,
          'InvalidRequest',
          'This service-auth JWT was already used for other interactions; send them with a fresh one.',
        );
      const refusal = xrpcRefusal(c, error);
      if (refusal !== undefined) return refusal;
      throw error;
    }
  });
}
