// Client ID Metadata Documents against the real server: a client that names itself by the URL of
// its document (served here by a loopback http server, which only LOREBOOK_ALLOW_PRIVATE_FETCH
// lets lorebook reach) completes the authorization code flow with PKCE and calls /mcp; every
// fault of the document is refused with an invalid_client that says what to fix, and nothing is
// written. A second server with the setting off refuses documents on private addresses before
// any connection.

import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_SETTINGS } from '../../../integrations/safe-fetch/outbound-settings.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { type ClientDocumentServer, startClientDocumentServer } from '../../helpers/oauth/client-document-server.ts';
import {
  authorizationCode,
  authorizePath,
  type Client,
  callListNotifications,
  exchange,
  get,
  type Person,
  pkcePair,
  refreshWith,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const TIMEOUT_MS = 400;
const server = useLorebookServer('e2e-oauth-cimd', { oauthSettings: { allowPrivateFetch: true, clientMetadataTimeoutMs: TIMEOUT_MS } });
const base = (): string => server.baseUrl();
const REDIRECT = 'http://127.0.0.1:49152/callback';
const HOSTILE_NAME = '<script>alert("x")</script> & Co';

let docs: ClientDocumentServer;
let alice: Person;
beforeAll(async () => {
  docs = await startClientDocumentServer();
  alice = await signedInPerson(server.app.ctx(), 'alice');
});
afterAll(async () => {
  await docs.close();
});

const oauthItems = async () =>
  (await server.app.state()).filter((item) => /^(OAUTHCLIENT|CONSENT|GRANT|AUTHCODE|REFRESH|TOKEN)#/.test(String(item.PK)));

const authorizePage = (clientId: string, redirectUri = REDIRECT) =>
  get(
    base(),
    authorizePath({ client_id: clientId, redirect_uri: redirectUri, code_challenge: pkcePair().challenge, resource: `${base()}/mcp` }),
    alice.cookie,
  );

describe('a client identified by its metadata document', () => {
  it('completes the authorization code flow with PKCE: an escaped, marked consent page, iss on the redirect, a token that works on /mcp, and no client record', async () => {
    const clientId = docs.serveDocument('/good/client.json', { client_name: HOSTILE_NAME, redirect_uris: [REDIRECT] });
    const page = await authorizePage(clientId);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(page.text).toContain(`identified by its metadata document at <code>${clientId}</code>`);

    const client: Client = { client_id: clientId, redirect_uri: REDIRECT };
    const { code, pkce, location } = await authorizationCode(base(), alice, client);
    expect(location.searchParams.get('iss')).toBe(base());
    const token = await exchange(base(), client, code, pkce.verifier);
    expect(token.status).toBe(200);
    expect(token.json()).toMatchObject({ token_type: 'Bearer', scope: 'lorebook:read lorebook:write' });
    const called = await callListNotifications(base(), String(token.json().access_token));
    expect(called.status).toBe(200);
    expect(called.json().result).toMatchObject({ structuredContent: { notifications: [] } });

    const refreshed = await refreshWith(base(), client, String(token.json().refresh_token));
    expect(refreshed.status).toBe(200);
    // Nothing of the client is stored: the document is its record.
    expect((await oauthItems()).filter((item) => String(item.PK).startsWith('OAUTHCLIENT#'))).toEqual([]);
    expect((await oauthItems()).find((item) => String(item.PK).startsWith('TOKEN#'))).toMatchObject({
      client_id: clientId,
      account: alice.did,
    });
  });

  it('a replayed token exchange is refused as a reused code and revokes the tokens it issued (the same twice-safety as a registered client)', async () => {
    const clientId = docs.serveDocument('/replay/client.json', { client_name: 'Replay', redirect_uris: [REDIRECT] });
    const client: Client = { client_id: clientId, redirect_uri: REDIRECT };
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const first = await exchange(base(), client, code, pkce.verifier);
    expect(first.status).toBe(200);
    const replay = await exchange(base(), client, code, pkce.verifier);
    expect(replay.status).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await callListNotifications(base(), String(first.json().access_token))).status).toBe(401);
  });

  it('16 parallel exchanges of one code leave at most one live token set', async () => {
    const clientId = docs.serveDocument('/parallel/client.json', { client_name: 'Parallel', redirect_uris: [REDIRECT] });
    const client: Client = { client_id: clientId, redirect_uri: REDIRECT };
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const answers = await Promise.all(Array.from({ length: 16 }, () => exchange(base(), client, code, pkce.verifier)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
    const live = await Promise.all(
      answers.filter((answer) => answer.status === 200).map((answer) => callListNotifications(base(), String(answer.json().access_token))),
    );
    // One winner and fifteen replays: the replays revoke the winner's family too.
    expect(live.filter((answer) => answer.status === 200)).toEqual([]);
  });

  it('is fetched once while fresh (max-age), then revalidated with its ETag (304) once stale', async () => {
    const clientId = docs.serveDocument(
      '/cached/client.json',
      { client_name: 'Cached', redirect_uris: [REDIRECT] },
      { 'Cache-Control': 'max-age=60', ETag: '"v1"' },
    );
    expect((await authorizePage(clientId)).status).toBe(200);
    expect((await authorizePage(clientId)).status).toBe(200);
    expect(docs.requests('/cached/client.json')).toEqual([{ ifNoneMatch: undefined }]);
    server.app.advance(61_000);
    expect((await authorizePage(clientId)).status).toBe(200);
    expect(docs.requests('/cached/client.json')).toEqual([{ ifNoneMatch: undefined }, { ifNoneMatch: '"v1"' }]);
  });

  it('no-store is kept the cache floor all the same (a stranger cannot make every authorize a fetch), then fetched again', async () => {
    const clientId = docs.serveDocument('/nostore/client.json', { redirect_uris: [REDIRECT] }, { 'Cache-Control': 'no-store' });
    await authorizePage(clientId);
    await authorizePage(clientId);
    expect(docs.requests('/nostore/client.json')).toHaveLength(1);
    server.app.advance(DEFAULT_OUTBOUND_SETTINGS.cacheFloorMs + 1);
    await authorizePage(clientId);
    expect(docs.requests('/nostore/client.json')).toHaveLength(2);
  });

  it('a document that could not be fetched is remembered a while: asked again at once, nothing is fetched', async () => {
    const clientId = docs.serve('/gone/client.json', (_request, response) => response.writeHead(404).end());
    expect((await authorizePage(clientId)).status).toBe(400);
    const again = await authorizePage(clientId);
    expect(again.status).toBe(400);
    expect(again.text).toContain('answered HTTP 404');
    expect(docs.requests('/gone/client.json')).toHaveLength(1);
    server.app.advance(DEFAULT_OUTBOUND_SETTINGS.failureCacheMs + 1);
    await authorizePage(clientId);
    expect(docs.requests('/gone/client.json')).toHaveLength(2);
  });
});

describe('a metadata document that cannot be used is refused as a page, with a reason, and nothing is written', () => {
  const refusals: [string, () => string, RegExp][] = [
    [
      'client_id in the document differs from its URL',
      () => docs.serveDocument('/mismatch/client.json', { client_id: 'https://elsewhere.example/client.json', redirect_uris: [REDIRECT] }),
      /names client_id "https:\/\/elsewhere\.example\/client\.json": it must be exactly the document's own URL/,
    ],
    [
      'the redirect_uri is not in the list',
      () => docs.serveDocument('/other-redirect/client.json', { redirect_uris: ['http://127.0.0.1:49153/callback'] }),
      /redirect_uri is not one .* registered \(it must match exactly\)/,
    ],
    [
      'it is larger than 5 KiB',
      () => docs.serveDocument('/big/client.json', { redirect_uris: [REDIRECT], padding: 'x'.repeat(6000) }),
      /larger than 5120 bytes/,
    ],
    [
      'it does not arrive in time',
      () =>
        docs.serve('/slow/client.json', (_request, response) => {
          const timer = setTimeout(() => response.writeHead(200).end('{}'), 5000);
          response.on('close', () => clearTimeout(timer));
        }),
      new RegExp(`did not arrive within ${TIMEOUT_MS} ms`),
    ],
    [
      'it redirects',
      () => docs.serve('/moved/client.json', (_request, response) => response.writeHead(302, { Location: '/good/client.json' }).end()),
      /answered HTTP 302; it must answer 200 with the JSON document itself \(no redirects\)/,
    ],
    ['it is not JSON', () => docs.serve('/html/client.json', (_request, response) => response.writeHead(200).end('<html>')), /is not JSON/],
    [
      'it carries a client secret',
      () => docs.serveDocument('/secret/client.json', { redirect_uris: [REDIRECT], client_secret: 'shh' }),
      /must not carry a shared secret/,
    ],
    [
      'it asks for a confidential client',
      () => docs.serveDocument('/jwt/client.json', { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }),
      /public clients only/,
    ],
    ['the URL has a fragment', () => `${docs.origin}/good/client.json#frag`, /must not contain a fragment/],
    [
      'the URL carries credentials',
      () => `http://user:pw@127.0.0.1:${new URL(docs.origin).port}/good/client.json`,
      /user name or password/,
    ],
    ['the URL has no path', () => `${docs.origin}/`, /must have a path/],
  ];
  for (const [what, clientIdOf, reason] of refusals) {
    it(`refused when ${what}`, async () => {
      const before = await oauthItems();
      const page = await authorizePage(clientIdOf());
      expect(page.status).toBe(400);
      expect(page.text).toMatch(/invalid_client|invalid_redirect_uri/);
      expect(page.text.replaceAll('&quot;', '"').replaceAll('&#39;', "'")).toMatch(reason);
      expect(page.text).not.toContain('name="consent"');
      expect(await oauthItems()).toEqual(before);
    });
  }

  it('the token endpoint refuses a document client whose document broke since: 401 invalid_client', async () => {
    let broken = false;
    const clientId = docs.serve('/breaks/client.json', (request, response) => {
      const url = `${docs.origin}${request.url}`;
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      response.end(JSON.stringify({ client_id: broken ? 'https://other.example/c.json' : url, redirect_uris: [REDIRECT] }));
    });
    const client: Client = { client_id: clientId, redirect_uri: REDIRECT };
    const { code, pkce } = await authorizationCode(base(), alice, client);
    broken = true;
    // Past the cache floor, within the code's life: the token endpoint fetches the document again.
    server.app.advance(DEFAULT_OUTBOUND_SETTINGS.cacheFloorMs + 1);
    const token = await exchange(base(), client, code, pkce.verifier);
    expect(token.status).toBe(401);
    expect(token.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('own URL') });
  });
});

describe('with private fetches off (the default), a document on a private address is refused without a connection', () => {
  const strict = useLorebookServer('e2e-oauth-cimd-strict');
  let listener: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  const strictPage = async (clientId: string) => {
    const person = await signedInPerson(strict.app.ctx(), 'bob');
    return get(
      strict.baseUrl(),
      authorizePath({ client_id: clientId, redirect_uri: REDIRECT, code_challenge: pkcePair().challenge }),
      person.cookie,
    );
  };

  for (const clientId of [
    () => `https://127.0.0.1:${port}/client.json`,
    () => `https://localhost:${port}/client.json`,
    () => 'https://127.0.0.1/client.json',
    () => 'https://10.0.0.1/client.json',
    () => 'https://169.254.169.254/latest/client.json',
    () => 'https://[::1]/client.json',
  ]) {
    it(`refuses ${clientId().replace(String(port), '<port>')}`, async () => {
      const page = await strictPage(clientId());
      expect(page.status).toBe(400);
      expect(page.text).toContain('invalid_client');
      expect(page.text).toMatch(/not public|https on the default port/);
      expect(connections).toBe(0);
    });
  }

  it('refuses an http document URL outright', async () => {
    const page = await strictPage(`http://127.0.0.1:${port}/client.json`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('must be an https URL');
    expect(connections).toBe(0);
  });

  it('says so in its metadata', async () => {
    expect(await (await strict.fetch('/.well-known/oauth-authorization-server')).json()).toMatchObject({
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['lorebook:read', 'lorebook:write'],
    });
  });
});
