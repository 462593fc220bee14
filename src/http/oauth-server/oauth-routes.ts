// lorebook as the OAuth 2.1 authorization server for its own MCP resource (MCP authorization
// spec 2025-06-18): metadata, dynamic client registration, the token endpoint and revocation.
// The browser steps (authorize, consent) and the account page are mounted from here too.
import type { Context, Hono, Next } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import { consumeRateLimit, ipRateSubject, rateLimited, rateLimitHeaders } from '../../app/context/rate-limit.ts';
import { revokeByClient } from '../../app/oauth-server/revoke-token.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import type { ClientAddress } from '../admission.ts';
import type { HttpEnv } from '../http-env.ts';
import { mountAccount } from './account-routes.ts';
import { mountAuthorize } from './authorize-routes.ts';
import { AUTHORIZATION_SERVER_METADATA_PATH, authorizationServerMetadata, OAUTH_PATHS } from './metadata.ts';
import { answeringOAuth, NO_STORE, oauthJson, readForm, readJson } from './oauth-answer.ts';
import { oauthForRequest } from './oauth-for-request.ts';

export interface OAuthRouteDeps {
  ctx: AppContext;
  oauth: OAuthServer;
  /** The caller's address: the client endpoints share the anonymous per-IP budget (they carry no lorebook token). */
  clientAddress?: ClientAddress;
}

export function mountOAuthServer(app: Hono<HttpEnv>, deps: OAuthRouteDeps): void {
  const metadata = authorizationServerMetadata(deps.oauth);
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, (c) => c.json(metadata, 200, { 'Cache-Control': 'public, max-age=3600' }));

  mountAuthorize(app, deps);
  mountAccount(app, deps);

  // Registration, token and revocation calls are counted per IP address like any call without a
  // token, so a flood of registrations or code guesses runs into the anonymous budget (429).
  const addressOf = (c: Context<HttpEnv>): string => deps.clientAddress?.(c) ?? 'unknown';
  const limit = async (c: Context<HttpEnv>, next: Next): Promise<void> => {
    const decision = await consumeRateLimit(deps.ctx, ipRateSubject(addressOf(c)));
    c.set('answerHeaders', { ...c.get('answerHeaders'), ...rateLimitHeaders(decision) });
    if (!decision.allowed) throw rateLimited(decision);
    await next();
  };
  for (const path of [OAUTH_PATHS.register, OAUTH_PATHS.token, OAUTH_PATHS.revoke]) app.post(path, limit);
  app.post(OAUTH_PATHS.register, (c) =>
    answeringOAuth(c, async () => {
      // Loaded on first use, not at a cold start (what the http function loads at a cold start is
      // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
      const { registerClient } = await import('../../app/oauth-server/register-client.ts');
      return oauthJson(c, await registerClient(deps.ctx, deps.oauth, await readJson(c), addressOf(c)), 201);
    }),
  );
  app.post(OAUTH_PATHS.token, (c) =>
    answeringOAuth(c, async () => {
      // Loaded on first use, as registration is.
      const { tokenRequest } = await import('../../app/oauth-server/token-request.ts');
      return oauthJson(c, await tokenRequest(deps.ctx, oauthForRequest(c, deps), await readForm(c)));
    }),
  );
  app.post(OAUTH_PATHS.revoke, (c) =>
    answeringOAuth(c, async () => {
      await revokeByClient(deps.ctx, oauthForRequest(c, deps), await readForm(c));
      return c.body(null, 200, NO_STORE);
    }),
  );
}
