// The production client's documents, served by the app itself: PDSs fetch the client metadata
// from its client_id and verify private_key_jwt assertions against the JWKS.
import { JoseKey } from '@atproto/oauth-client-node';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type AppContext, DEFAULT_APP_CONFIG } from '../../../../../src/app/context/app-context.ts';
import { readSignInConfig } from '../../../../../src/auth/sign-in-config.ts';
import type { HttpEnv } from '../../../../../src/http/http-env.ts';
import { mountSignIn } from '../../../../../src/http/sign-in/sign-in-routes.ts';

const BASE = 'https://lorebook.example';

// Serving the two documents reads no store: a context that fails loudly if anything does.
const noStore = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the client documents must not touch the store');
    },
  },
);
const ctx = { store: noStore, config: DEFAULT_APP_CONFIG, sleep: async () => undefined, random: Math.random } as unknown as AppContext;

async function productionApp(): Promise<Hono<HttpEnv>> {
  const key = await JoseKey.generate(['ES256'], 'k1');
  const config = readSignInConfig(
    { LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: JSON.stringify(key.privateJwk) },
    BASE,
  );
  if (config === undefined) throw new Error('production config expected');
  const app = new Hono<HttpEnv>();
  mountSignIn(app, { ctx, baseUrl: BASE, config, log: () => undefined });
  return app;
}

describe('the production client documents', () => {
  it('serve client metadata whose client_id is its own URL, with private_key_jwt and the JWKS location', async () => {
    const app = await productionApp();
    const answer = await app.request(`${BASE}/oauth/client-metadata.json`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      client_id: `${BASE}/oauth/client-metadata.json`,
      redirect_uris: [`${BASE}/auth/callback`],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${BASE}/oauth/jwks.json`,
      dpop_bound_access_tokens: true,
      scope: 'atproto',
    });
  });

  it('serve only the public half of the key', async () => {
    const app = await productionApp();
    const jwks = (await (await app.request(`${BASE}/oauth/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: 'k1' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});
