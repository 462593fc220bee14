import { describe, expect, it } from 'vitest';
import { clientFromDocument } from '../../../../src/app/oauth-server/client-metadata-document.ts';
import { OAuthError } from '../../../../src/domain/oauth-error.ts';

const URL_ID = 'https://app.example/oauth/client.json';
const REDIRECT = 'https://app.example/callback';
const valid = { client_id: URL_ID, client_name: 'App', redirect_uris: [REDIRECT] };

function refusal(body: unknown): OAuthError {
  try {
    clientFromDocument(URL_ID, body);
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('a client ID metadata document', () => {
  it('a valid document is a public client with its name and redirect URIs, marked as a document client', () => {
    expect(clientFromDocument(URL_ID, { ...valid, logo_uri: 'https://app.example/logo.png', token_endpoint_auth_method: 'none' })).toEqual({
      client_id: URL_ID,
      client_name: 'App',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      metadata_document: true,
    });
  });

  it('without a client_name it is named by the host of its URL', () => {
    expect(clientFromDocument(URL_ID, { client_id: URL_ID, redirect_uris: [REDIRECT] }).client_name).toBe('app.example');
  });

  it.each([
    ['not an object', 'just text', /must be a JSON object/],
    ['no redirect_uris', { client_id: URL_ID }, /redirect_uris/],
    ['too many redirect_uris', { ...valid, redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}${i}`) }, /redirect_uris/],
    ['another client_id', { ...valid, client_id: 'https://evil.example/client.json' }, /must be exactly the document's own URL/],
    ['the client_id with a trailing slash', { ...valid, client_id: `${URL_ID}/` }, /must be exactly the document's own URL/],
    ['a client_secret', { ...valid, client_secret: 'x' }, /must not carry a shared secret/],
    ['a client_secret_expires_at', { ...valid, client_secret_expires_at: 0 }, /must not carry a shared secret/],
    ['a confidential auth method', { ...valid, token_endpoint_auth_method: 'client_secret_basic' }, /public clients only/],
    ['a fragment in a redirect URI', { ...valid, redirect_uris: [`${REDIRECT}#x`] }, /fragment/],
    ['an http redirect URI off loopback', { ...valid, redirect_uris: ['http://app.example/cb'] }, /not loopback/],
    ['an unknown grant type', { ...valid, grant_types: ['authorization_code', 'password'] }, /grant type "password"/],
    ['no authorization_code grant', { ...valid, grant_types: ['refresh_token'] }, /authorization_code/],
    ['an implicit response type', { ...valid, response_types: ['token'] }, /response type "token"/],
    ['a name with a line break', { ...valid, client_name: 'App\nApprove me' }, /client_name/],
    ['a name over 100 characters', { ...valid, client_name: 'x'.repeat(101) }, /client_name/],
  ])('%s is invalid_client with a reason', (_what, body, reason) => {
    const error = refusal(body);
    expect(error.error).toBe('invalid_client');
    expect(error.message).toContain(URL_ID);
    expect(error.message).toMatch(reason);
  });
});
