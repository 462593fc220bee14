import { describe, expect, it } from 'vitest';
import { isRegisteredRedirect, redirectUriProblem } from '../../../../src/auth/oauth/redirect-uri.ts';

describe('redirect URIs a client may register', () => {
  it.each([
    'https://app.example/callback',
    'http://127.0.0.1:33418/callback',
    'http://[::1]:8080/cb',
    'http://localhost:3000/cb',
    'com.example.app:/oauth',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['http://app.example/callback', /not loopback/],
    ['https://app.example/cb#frag', /fragment/],
    ['javascript:alert(1)', /scheme/],
    ['/relative', /absolute/],
  ])('refuses %s', (uri, reason) => {
    expect(redirectUriProblem(uri)).toMatch(reason);
  });

  it('matches exactly: one character off, a trailing slash or another port is not the registered URI', () => {
    const registered = ['http://127.0.0.1:33418/callback'];
    expect(isRegisteredRedirect(registered, 'http://127.0.0.1:33418/callback')).toBe(true);
    for (const near of [
      'http://127.0.0.1:33418/callbacK',
      'http://127.0.0.1:33418/callback/',
      'http://127.0.0.1:33419/callback',
      'http://127.0.0.1:33418/callback?x=1',
    ]) {
      expect(isRegisteredRedirect(registered, near)).toBe(false);
    }
  });
});
