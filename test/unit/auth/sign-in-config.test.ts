import { describe, expect, it } from 'vitest';
import { clientMetadata } from '../../../src/app/sign-in/bluesky-oauth-client.ts';
import { readSignInConfig } from '../../../src/auth/sign-in-config.ts';

const KEY = JSON.stringify({ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y', d: 'd' });

describe('the sign-in client switch (LOREBOOK_BLUESKY_OAUTH_CLIENT)', () => {
  it('defaults to the loopback development client on a 127.0.0.1 base URL', () => {
    expect(readSignInConfig({}, 'http://127.0.0.1:8787')).toEqual({ mode: 'loopback' });
  });

  it('fetches only public addresses unless LOREBOOK_ALLOW_PRIVATE_FETCH is 1 (a local PDS); the resolver settings alone do not open it', () => {
    const local = { LOREBOOK_BLUESKY_HANDLE_RESOLVER: 'http://127.0.0.1:2583', LOREBOOK_PLC_DIRECTORY_URL: 'http://127.0.0.1:2582' };
    expect(readSignInConfig(local, 'http://127.0.0.1:8787')).not.toHaveProperty('allowPrivateFetch');
    for (const off of ['', '0', 'false'])
      expect(readSignInConfig({ LOREBOOK_ALLOW_PRIVATE_FETCH: off }, 'http://127.0.0.1:8787')).toEqual({ mode: 'loopback' });
    for (const on of ['1', 'true'])
      expect(readSignInConfig({ ...local, LOREBOOK_ALLOW_PRIVATE_FETCH: on }, 'http://127.0.0.1:8787')).toMatchObject({
        allowPrivateFetch: true,
      });
  });

  it('the loopback client redirects to /auth/callback on 127.0.0.1 and asks only for the atproto scope', () => {
    const metadata = clientMetadata('http://127.0.0.1:8787', { mode: 'loopback' });
    expect(metadata.redirect_uris).toEqual(['http://127.0.0.1:8787/auth/callback']);
    expect(metadata.scope).toBe('atproto');
    expect(metadata.client_id).toMatch(/^http:\/\/localhost\?/);
    expect(metadata.token_endpoint_auth_method).toBe('none');
  });

  it('is off when unset on a public base URL, and an explicit loopback there is refused, saying what to set', () => {
    expect(readSignInConfig({}, 'https://lorebook.example')).toBeUndefined();
    expect(() => readSignInConfig({ LOREBOOK_BLUESKY_OAUTH_CLIENT: 'loopback' }, 'https://lorebook.example')).toThrow(
      /LOREBOOK_BLUESKY_OAUTH_CLIENT=production and LOREBOOK_OAUTH_PRIVATE_KEY/,
    );
  });

  it('production: client_id and jwks_uri on the base URL, private_key_jwt', () => {
    const config = readSignInConfig(
      { LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: KEY },
      'https://lorebook.example',
    );
    if (config === undefined) throw new Error('production config expected');
    expect(config).toEqual({ mode: 'production', privateKeyJwk: KEY });
    expect(clientMetadata('https://lorebook.example', config)).toMatchObject({
      client_id: 'https://lorebook.example/oauth/client-metadata.json',
      jwks_uri: 'https://lorebook.example/oauth/jwks.json',
      redirect_uris: ['https://lorebook.example/auth/callback'],
      token_endpoint_auth_method: 'private_key_jwt',
      application_type: 'web',
      scope: 'atproto',
    });
  });

  it.each([
    [{ LOREBOOK_BLUESKY_OAUTH_CLIENT: 'prod' }, 'https://l.example', /must be "loopback" \(development\) or "production"/],
    [{ LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production' }, 'https://l.example', /needs LOREBOOK_OAUTH_PRIVATE_KEY/],
    [
      { LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: KEY },
      'http://l.example',
      /needs an https LOREBOOK_BASE_URL/,
    ],
    [
      { LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: 'nope' },
      'https://l.example',
      /must be a JWK as JSON text/,
    ],
    [
      { LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production', LOREBOOK_OAUTH_PRIVATE_KEY: '{"kty":"EC"}' },
      'https://l.example',
      /private JWK \(with "d"\) and a "kid"/,
    ],
    [{ LOREBOOK_BLUESKY_HANDLE_RESOLVER: 'ftp://x' }, 'http://127.0.0.1:1', /LOREBOOK_BLUESKY_HANDLE_RESOLVER must be an http\(s\) URL/],
    [{ LOREBOOK_ALLOW_PRIVATE_FETCH: 'yes' }, 'http://127.0.0.1:1', /LOREBOOK_ALLOW_PRIVATE_FETCH must be 1/],
  ])('refuses %j on %s with a message that says what to fix', (env, base, message) => {
    expect(() => readSignInConfig(env, base)).toThrow(message);
  });
});
