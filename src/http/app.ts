// The hono app: MCP at /mcp, the API at /v1, protected-resource metadata; the framing headers on
// every HTML answer and Host/Origin checks in front of everything, one error renderer behind it.
// Runtime-neutral: src/cli/start.ts serves it with @hono/node-server.
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { type OutboundSettings, outboundWith } from '../../integrations/safe-fetch/outbound-settings.ts';
import type { AppContext } from '../app/context/app-context.ts';
import { countRefusal } from '../app/context/metrics.ts';
import type { StorySearch } from '../app/search/story-search.ts';
import { type OAuthServerSettings, oauthServerAt } from '../auth/oauth/oauth-settings.ts';
import type { FeedGeneratorConfig } from '../config.ts';
import { isLorebookError } from '../domain/errors.ts';
import { DEFAULT_REFUSAL_HOLD, type RefusalHoldSettings } from '../settings/refusal-hold-settings.ts';
import type { ClientAddress } from './admission.ts';
import { denyFraming } from './frame-guard.ts';
import type { HttpEnv } from './http-env.ts';
import { mountImages } from './image-route.ts';
import { mountMcp } from './mcp/route.ts';
import { mountDeviceFlow } from './oauth-server/device-routes.ts';
import { mountOAuthServer } from './oauth-server/oauth-routes.ts';
import { mountPages } from './pages/mount-pages.ts';
import { noSuchEndpoint, renderError } from './problem.ts';
import { createRefusalHold } from './refusal-hold.ts';
import { createRequestGuard } from './request-guard.ts';
import { countRequests } from './request-metrics.ts';
import { mountSignInOff } from './sign-in/sign-in-off.ts';
import { mountSignIn, type SignInDeps } from './sign-in/sign-in-routes.ts';
import { mountSkillFile } from './skill-file.ts';
import { SKILL_HEADER, skillUpdate } from './skill-update.ts';
import { mountRoutes, OPENAPI_PATH } from './v1/route.ts';
import { V1_ROUTES } from './v1/routes.ts';
import { mountWellKnown } from './well-known.ts';

export interface HttpAppDeps {
  ctx: AppContext;
  search: StorySearch;
  /** The public base URL, e.g. http://127.0.0.1:8787 (no trailing slash). */
  baseUrl: string;
  /** Web origins allowed to call from a browser (CORS); any other Origin is refused. */
  allowedOrigins: string[];
  /** Extra Host values to accept besides the base URL's and the loopback names of its port. */
  allowedHosts?: string[];
  /** The caller's address for the anonymous rate limit (default: the socket's, under @hono/node-server). */
  clientAddress?: ClientAddress;
  /** The Bluesky feed generator's feed record (pages, docs/pages.md); default: no feed listed. */
  feedGenerator?: FeedGeneratorConfig;
  /** URLs per sitemap file (default: the protocol's 50,000); a test makes it small to see a month split. */
  sitemapMaxUrls?: number;
  /** Lifetimes of the OAuth server's tokens, codes and clients (default: DEFAULT_OAUTH_SERVER_SETTINGS). */
  oauthSettings?: OAuthServerSettings;
  /** Where the OAuth server says what happened (grants decided and revoked, reused credentials); default: nowhere. */
  oauthLog?: (line: string) => void;
  /** The budget, caches and slots of fetches made for strangers (design.md#admission); default DEFAULT_OUTBOUND_SETTINGS. */
  outbound?: OutboundSettings;
  /** How long and how many refused oversized requests are held before their answer (design.md#admission); default DEFAULT_REFUSAL_HOLD. */
  refusalHold?: RefusalHoldSettings;
  /** Sign in with Bluesky (/auth/*); off when absent. */
  signIn?: Omit<SignInDeps, 'ctx' | 'baseUrl' | 'admission'>;
}

/** The TCP peer under @hono/node-server; nothing under other runtimes (then one shared budget). */
const socketAddress: ClientAddress = (c) => {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
};

export function createHttpApp(deps: HttpAppDeps): Hono<HttpEnv> {
  const baseUrl = deps.baseUrl.replace(/\/+$/, '');
  const app = new Hono<HttpEnv>();
  const guard = createRequestGuard({
    baseUrl,
    allowedOrigins: deps.allowedOrigins,
    ...(deps.allowedHosts === undefined ? {} : { allowedHosts: deps.allowedHosts }),
  });
  const admission = { ctx: deps.ctx, clientAddress: deps.clientAddress ?? socketAddress, baseUrl };
  // One set of outbound slots for the whole app: the DID look-ups and the client documents share the cap.
  const outbound = outboundWith(deps.outbound);

  app.use('*', countRequests(deps.ctx));
  app.use('*', denyFraming);
  app.use('*', async (c, next) => {
    c.set('answerHeaders', {});
    guard.check(c.req.header('host'), c.req.header('origin'));
    // The runtime settings (rate limits, moderation thresholds) as of at most one cache period ago:
    // a read only when they are stale, shared by the requests that find them so (design.md#settings).
    await deps.ctx.refreshSettings?.();
    await next();
    // The rate-limit headers go on every answer, the refusals from onError included.
    for (const [name, value] of Object.entries(c.get('answerHeaders'))) c.res.headers.set(name, value);
  });
  app.use('/v1/*', skillUpdate(baseUrl));
  if (guard.webOrigins.size > 0) {
    app.use(
      '*',
      cors({
        origin: (origin) => (guard.webOrigins.has(origin) ? origin : null),
        allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
        allowHeaders: [
          'Authorization',
          'Content-Type',
          'Idempotency-Key',
          'If-Match',
          SKILL_HEADER,
          'Mcp-Protocol-Version',
          'Mcp-Session-Id',
          'Last-Event-ID',
        ],
        exposeHeaders: [
          'WWW-Authenticate',
          'Idempotent-Replayed',
          'ETag',
          'Location',
          'Retry-After',
          'RateLimit',
          'RateLimit-Policy',
          'Mcp-Session-Id',
        ],
        maxAge: 600,
      }),
    );
  }

  mountWellKnown(app, baseUrl);
  mountSkillFile(app);
  mountOAuthServer(app, {
    ctx: deps.ctx,
    oauth: oauthServerAt(baseUrl, deps.oauthSettings, deps.oauthLog, outbound),
    clientAddress: admission.clientAddress,
  });
  mountMcp(app, { ...admission, search: deps.search });
  // Built on its first request, not at a cold start: the document and its JSON Schema conversion
  // stay out of the http function's start (bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
  let document: Promise<Record<string, unknown>> | undefined;
  app.get(OPENAPI_PATH, async (c) => {
    document ??= import('./v1/openapi.ts').then(({ openApiDocument }) => openApiDocument(baseUrl));
    return c.json(await document);
  });
  mountRoutes(app, V1_ROUTES, { ...admission, search: deps.search });
  mountImages(app, admission);
  mountPages(app, {
    ...admission,
    baseUrl,
    outbound,
    ...(deps.feedGenerator === undefined ? {} : { feedGenerator: deps.feedGenerator }),
    ...(deps.sitemapMaxUrls === undefined ? {} : { sitemapMaxUrls: deps.sitemapMaxUrls }),
  });
  if (deps.signIn !== undefined) {
    mountSignIn(app, { ctx: deps.ctx, baseUrl, admission, ...deps.signIn });
    // The device flow's approval page needs a web session, so it is offered only where people can sign in.
    mountDeviceFlow(app, { ctx: deps.ctx, baseUrl, admission });
  } else mountSignInOff(app, baseUrl);

  const holdRefusal = createRefusalHold(deps.refusalHold ?? DEFAULT_REFUSAL_HOLD, admission.clientAddress);
  const answerError = async (err: Error, c: Context<HttpEnv>): Promise<Response> => {
    if (!isLorebookError(err)) return renderError(err, c, baseUrl);
    countRefusal(deps.ctx, err.code);
    const held = await holdRefusal(c, err);
    // Closed unanswered (too many held): nothing is written on that socket.
    if (held === undefined) return new Response(null, { status: err.httpStatus });
    const answer = renderError(held.error, c, baseUrl);
    if (held.close) answer.headers.set('Connection', 'close');
    return answer;
  };
  app.notFound((c: Context<HttpEnv>) => answerError(noSuchEndpoint(c.req.method, c.req.path), c));
  app.onError(answerError);
  return app;
}
