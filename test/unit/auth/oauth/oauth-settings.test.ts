import { describe, expect, it } from 'vitest';
import { DEFAULT_OAUTH_SERVER_SETTINGS, oauthServerAt, readOAuthServerSettings } from '../../../../src/auth/oauth/oauth-settings.ts';

describe('OAuth server settings', () => {
  it('defaults to 1 h access tokens, 30 d refresh tokens, 5 min codes', () => {
    expect(readOAuthServerSettings({})).toEqual(DEFAULT_OAUTH_SERVER_SETTINGS);
    expect(DEFAULT_OAUTH_SERVER_SETTINGS).toMatchObject({
      accessTokenSeconds: 3600,
      refreshTokenSeconds: 2_592_000,
      authorizationCodeSeconds: 300,
    });
  });

  it('reads each lifetime from env and refuses nonsense', () => {
    expect(readOAuthServerSettings({ LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS: '600' }).accessTokenSeconds).toBe(600);
    expect(() => readOAuthServerSettings({ LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS: '-1' })).toThrow(/LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS/);
    expect(() => readOAuthServerSettings({ LOREBOOK_OAUTH_CODE_SECONDS: '3600' })).toThrow(/at most 600/);
  });

  it('the issuer is the base URL and the one resource is its /mcp', () => {
    expect(oauthServerAt('https://lorebook.example/')).toMatchObject({
      issuer: 'https://lorebook.example',
      resource: 'https://lorebook.example/mcp',
    });
  });
});
