// Dynamic client registration (RFC 7591): public clients with exact redirect URIs; refusals name
// the fault in RFC 7591 §3.2.2 terms and write nothing; the token endpoint knows only them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { post, registerClient } from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-registration');
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

describe('dynamic client registration', () => {
  it('registers a public client (201, no secret, token_endpoint_auth_method none) and ignores unknown metadata', async () => {
    const answer = await registerClient(server.baseUrl(), {
      client_name: 'Cursor-ish',
      redirect_uris: ['http://127.0.0.1:6274/oauth/callback'],
      logo_uri: 'https://x.example/logo.png',
      scope: 'anything',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json()).toEqual({
      client_id: expect.stringMatching(/^lbc_[0-9a-f]{32}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Cursor-ish',
      redirect_uris: ['http://127.0.0.1:6274/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    expect(answer.json()).not.toHaveProperty('client_secret');
  });

  it.each([
    [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb#x'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_client_metadata'],
    [{ client_name: 'no uris' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
  ])('refuses %j as %s and writes nothing', async (metadata, error) => {
    const before = await observable();
    const answer = await registerClient(server.baseUrl(), metadata);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ error, error_description: expect.any(String) });
    expect(await observable()).toEqual(before);
  });

  it('the token endpoint refuses unknown clients (401 invalid_client), unknown grant types and non-form bodies', async () => {
    const unknown = await post(server.baseUrl(), '/oauth/token', {
      grant_type: 'authorization_code',
      client_id: 'lbc_00000000000000000000000000000000',
      code: 'x',
      redirect_uri: 'https://a.example',
      code_verifier: 'x',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json().error).toBe('invalid_client');
    expect((await post(server.baseUrl(), '/oauth/token', { grant_type: 'password' })).json().error).toBe('unsupported_grant_type');
    const json = await fetch(`${server.baseUrl()}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });
});

const tight = useLorebookServer('e2e-oauth-registration-limit', { config: { anonymousRateLimitPerMinute: 3 } });

describe('the client endpoints share the anonymous per-IP budget', () => {
  // The budget is per minute: a run that crossed a minute between two calls started a new one.
  beforeAll(() => tight.app.freeze());
  it('past the budget, registration is 429 rate_limited with Retry-After, and writes no client', async () => {
    const answers = [];
    for (let index = 0; index < 4; index += 1) {
      answers.push(await registerClient(tight.baseUrl(), { client_name: `flood ${index}`, redirect_uris: ['https://flood.example/cb'] }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
    expect(answers[3]?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(answers[3]?.json().code).toBe('rate_limited');
    expect((await tight.app.state()).filter((item) => String(item.PK).startsWith('OAUTHCLIENT#'))).toHaveLength(3);
  });
});
