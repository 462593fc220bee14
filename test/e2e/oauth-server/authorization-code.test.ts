// lorebook as the OAuth 2.1 authorization server, over HTTP against the real server: the happy
// path, and each refusal the issue names — with the stored items compared where nothing may be
// written.
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizationCode,
  authorizePath,
  callListNotifications,
  consentSecretOf,
  decide,
  exchange,
  get,
  newClient,
  type Person,
  pkcePair,
  refreshWith,
  registerClient,
  returnLinkOf,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-code');
const base = (): string => server.baseUrl();
/** Everything but the rate windows, which every HTTP call counts. */
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
const itemsWith = async (prefix: string) => (await observable()).filter((item) => String(item.PK).startsWith(prefix));

let alice: Person;
beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
});

describe('discovery', () => {
  it('the protected-resource metadata names lorebook as the authorization server, whose metadata says S256, code, public clients', async () => {
    const resource = (await (await server.fetch('/.well-known/oauth-protected-resource/mcp')).json()) as {
      authorization_servers: string[];
    };
    expect(resource.authorization_servers).toEqual([base()]);
    const response = await server.fetch('/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer: base(),
      authorization_endpoint: `${base()}/oauth/authorize`,
      token_endpoint: `${base()}/oauth/token`,
      registration_endpoint: `${base()}/oauth/register`,
      revocation_endpoint: `${base()}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });
});

describe('the authorization code flow', () => {
  it('a code exchanged with its verifier gives a short-lived, no-store token that acts as the signed-in DID on /mcp', async () => {
    const client = await newClient(base(), 'Happy App');
    const { code, pkce, location } = await authorizationCode(base(), alice, client);
    expect(location.searchParams.get('state')).toBe('st');
    expect(location.searchParams.get('iss')).toBe(base());
    const token = await exchange(base(), client, code, pkce.verifier);
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(token.json()).toEqual({
      access_token: expect.stringMatching(/^lbk_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^lbr_/),
      scope: 'lorebook:read lorebook:write',
    });
    const called = await callListNotifications(base(), String(token.json().access_token));
    expect(called.status).toBe(200);
    expect(called.json().result).toMatchObject({ structuredContent: { notifications: [] } });
    const tokens = await itemsWith('TOKEN#');
    expect(tokens.find((item) => item.grant_id !== undefined)).toMatchObject({
      account: alice.did,
      client: 'Happy App',
      resource: `${base()}/mcp`,
      client_id: client.client_id,
    });
    // Nothing secret is stored in the clear.
    const everything = JSON.stringify(await observable());
    for (const secret of [code, String(token.json().access_token), String(token.json().refresh_token), pkce.verifier])
      expect(everything).not.toContain(secret);
  });
});

describe('refusals', () => {
  it('plain PKCE (or none) is refused at authorize, offered back to the client as invalid_request, and nothing is written', async () => {
    const client = await newClient(base());
    const before = await observable();
    const { verifier } = pkcePair();
    for (const params of [{ code_challenge: verifier, code_challenge_method: 'plain' }, {}]) {
      const refused = await get(
        base(),
        authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, state: 'x', ...params }),
        alice.cookie,
      );
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
      const location = returnLinkOf(refused.text);
      expect(`${location.origin}${location.pathname}`).toBe(client.redirect_uri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('x');
    }
    expect(await observable()).toEqual(before);
  });

  it('a wrong code_verifier is invalid_grant and writes nothing; the code still works with the right one', async () => {
    const client = await newClient(base());
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const before = await observable();
    const refused = await exchange(base(), client, code, pkcePair().verifier);
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
    expect(await observable()).toEqual(before);
    expect((await exchange(base(), client, code, pkce.verifier)).status).toBe(200);
  });

  it('a redirect URI that differs by one character is shown as a page (never redirected to), and refused at the token endpoint', async () => {
    const client = await newClient(base());
    const before = await observable();
    const typo = client.redirect_uri.replace(/k$/, 'K');
    const refused = await get(
      base(),
      authorizePath({ client_id: client.client_id, redirect_uri: typo, code_challenge: pkcePair().challenge }),
      alice.cookie,
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(refused.text).toMatch(/must match exactly/);
    expect(await observable()).toEqual(before);

    const { code, pkce } = await authorizationCode(base(), alice, client);
    const afterCode = await observable();
    const atToken = await exchange(base(), client, code, pkce.verifier, { redirect_uri: `${client.redirect_uri}/` });
    expect(atToken.json().error).toBe('invalid_grant');
    expect(await observable()).toEqual(afterCode);
  });

  it('a replayed code is refused and revokes every token the code issued', async () => {
    const client = await newClient(base());
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const first = (await exchange(base(), client, code, pkce.verifier)).json();
    expect((await callListNotifications(base(), String(first.access_token))).status).toBe(200);
    const replay = await exchange(base(), client, code, pkce.verifier);
    expect(replay.status).toBe(400);
    expect(replay.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    const afterwards = await callListNotifications(base(), String(first.access_token));
    expect(afterwards.status).toBe(401);
    expect((await refreshWith(base(), client, String(first.refresh_token))).json().error).toBe('invalid_grant');
  });

  it('a reused old refresh token revokes the whole family: the newest refresh and access tokens stop working', async () => {
    const client = await newClient(base());
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const first = (await exchange(base(), client, code, pkce.verifier)).json();
    const second = await refreshWith(base(), client, String(first.refresh_token));
    expect(second.status).toBe(200);
    const newest = second.json();
    expect(newest.refresh_token).not.toBe(first.refresh_token);
    expect((await callListNotifications(base(), String(newest.access_token))).status).toBe(200);

    const reuse = await refreshWith(base(), client, String(first.refresh_token));
    expect(reuse.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    expect((await callListNotifications(base(), String(newest.access_token))).status).toBe(401);
    expect((await callListNotifications(base(), String(first.access_token))).status).toBe(401);
    expect((await refreshWith(base(), client, String(newest.refresh_token))).json().error).toBe('invalid_grant');
    // The family left nothing behind: no grant, refresh token or access token of it.
    const grantId = (await itemsWith('AUTHCODE#')).find((item) => item.client_id === client.client_id)?.grant_id;
    expect((await observable()).filter((item) => item.grant_id === grantId && !String(item.PK).startsWith('AUTHCODE#'))).toEqual([]);
  });

  it('an expired access token is 401 with the invalid_token challenge', async () => {
    const client = await newClient(base());
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const token = String((await exchange(base(), client, code, pkce.verifier)).json().access_token);
    expect((await callListNotifications(base(), token)).status).toBe(200);
    server.app.advance(3600 * 1000 + 1000);
    const expired = await callListNotifications(base(), token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base()}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
  });

  it("a token minted for another resource is refused: another server's /mcp, and this server's /v1", async () => {
    const client = await newClient(base());
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const token = String((await exchange(base(), client, code, pkce.verifier)).json().access_token);
    const other = await server.anotherInstance();
    const elsewhere = await callListNotifications(other, token);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toMatch(/error="invalid_token"$/);
    expect(JSON.stringify(elsewhere.json())).toMatch(/issued for .*\/mcp, not for/);
    const v1 = await fetch(`${base()}/v1/notifications`, { headers: { Authorization: `Bearer ${token}` } });
    expect(v1.status).toBe(401);
    expect((await callListNotifications(base(), token)).status).toBe(200);
  });

  it('a resource other than /mcp is invalid_target at authorize and at the token endpoint', async () => {
    const client = await newClient(base());
    const refused = await get(
      base(),
      authorizePath({
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        code_challenge: pkcePair().challenge,
        resource: `${base()}/v1`,
      }),
      alice.cookie,
    );
    expect(returnLinkOf(refused.text).searchParams.get('error')).toBe('invalid_target');
    const { code, pkce } = await authorizationCode(base(), alice, client);
    expect((await exchange(base(), client, code, pkce.verifier, { resource: 'https://elsewhere.example/mcp' })).json().error).toBe(
      'invalid_target',
    );
  });

  it('a denied consent redirects with access_denied and creates no grant and no code', async () => {
    const client = await newClient(base());
    const page = await get(
      base(),
      authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge, state: 's1' }),
      alice.cookie,
    );
    const denied = await decide(base(), alice.cookie, consentSecretOf(page.text), 'deny');
    expect(denied.status).toBe(303);
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('code')).toBeNull();
    expect(
      (await observable()).filter((item) => item.client_id === client.client_id && /^(GRANT|AUTHCODE|ACCOUNT)#/.test(String(item.PK))),
    ).toEqual([]);
  });

  it('an authorize error for a self-registered client is never an automatic redirect (open redirector): a page names the target host and links to it', async () => {
    // Anyone may register any https redirect URI, then hand out an erroneous authorize link.
    const registered = await registerClient(base(), { client_name: 'Totally lorebook', redirect_uris: ['https://phish.example/landing'] });
    const before = await observable();
    const link = authorizePath({
      client_id: String(registered.json().client_id),
      redirect_uri: 'https://phish.example/landing',
      response_type: 'token',
      state: 'p',
    });
    for (const cookie of [undefined, alice.cookie]) {
      const answer = await get(base(), link, cookie);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.text).toContain('lorebook has not verified this app');
      expect(answer.text).toContain('<code>phish.example</code>');
      const back = returnLinkOf(answer.text);
      expect(`${back.origin}${back.pathname}`).toBe('https://phish.example/landing');
      expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'unsupported_response_type', state: 'p', iss: base() });
    }
    // An unknown client or an unregistered redirect_uri: an error page with no link at all.
    for (const params of [
      { client_id: 'lbc_00000000000000000000000000000000', redirect_uri: 'https://phish.example/landing' },
      { client_id: String(registered.json().client_id), redirect_uri: 'https://phish.example/other' },
    ]) {
      const answer = await get(base(), authorizePath({ ...params, response_type: 'token' }));
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.text).not.toContain('phish.example/');
    }
    expect(await observable()).toEqual(before);
  });

  it('without a web session, authorize sends the browser to Sign in with Bluesky and back to this very request', async () => {
    const client = await newClient(base());
    const path = authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge });
    const answer = await get(base(), path);
    expect(answer.status).toBe(302);
    const login = new URL(answer.headers.get('location') ?? '', base());
    expect(login.pathname).toBe('/auth/login');
    expect(login.searchParams.get('return_to')).toBe(path);
  });

  it("another session cannot answer a person's consent form (CSRF), and nothing is decided", async () => {
    const client = await newClient(base());
    const page = await get(
      base(),
      authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge }),
      alice.cookie,
    );
    const mallory = await signedInPerson(server.app.ctx(), 'mallory');
    const before = await observable();
    const forged = await decide(base(), mallory.cookie, consentSecretOf(page.text), 'approve');
    expect(forged.status).toBe(400);
    expect(await observable()).toEqual(before);
  });
});
