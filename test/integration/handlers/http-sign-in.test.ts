// Parity of the Lambda http function with `npm start` for what came after it: Sign in with
// Bluesky (production client, its private key read from Secrets Manager), lorebook's OAuth server
// with its LOREBOOK_OAUTH_* lifetimes, and the Bluesky feed generator. The real handlers/http.ts
// gets synthetic Function URL events; the store is DynamoDB Local; the key's secret is read by the
// real Secrets Manager client from a FAKE Secrets Manager (AWS is not reachable from here).
// A real production-mode sign-in cannot run here (a PDS must fetch the client metadata from a
// public https URL), so what is checked is everything up to that: the pages, the metadata, the JWKS.
import { JoseKey } from '@atproto/oauth-client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../../handlers/http.ts';
import { UNSET_SIGN_IN_KEY } from '../../../handlers/sign-in-secret.ts';
import { s256 } from '../../../src/auth/oauth/pkce.ts';
import { oauthClientKey, toOAuthClient } from '../../../src/store/identity/oauth-client-items.ts';
import { readItem } from '../../../src/store/read-items.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { type FakeSecretsManager, startFakeSecretsManager } from '../../helpers/fake-secrets-manager.ts';
import { FUNCTION_URL, FUNCTION_URL_DOMAIN, functionUrlFetch } from '../../helpers/function-url.ts';
import { consentSecretOf, pkcePair, signedInPerson } from '../../helpers/oauth/oauth-flow.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('lambda-http-sign-in');
const KEY_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:lorebook-sign-in-key-AbCdEf';
const FEED_DID = 'did:plc:lorebookfeedpublisher';
const CLIENT_SECONDS = 3600;
const PENDING_CLIENT_SECONDS = 7_200;
const ACCESS_TOKEN_SECONDS = 900;
// Nothing listens on port 1: a handle lookup fails at once, and never leaves 127.0.0.1.
const NOWHERE = 'http://127.0.0.1:1';
let secrets: FakeSecretsManager;
let privateJwk: Record<string, unknown>;

beforeAll(async () => {
  // The key the way docs/deploy.md says to make one.
  privateJwk = (await JoseKey.generate(['ES256'], 'lorebook-1')).privateJwk as Record<string, unknown>;
  secrets = await startFakeSecretsManager(JSON.stringify(privateJwk));
});
afterAll(async () => {
  await secrets?.close();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  LOREBOOK_DDB_ENDPOINT: testEndpoint(),
  LOREBOOK_TABLE: app.ctx().store.tableName,
  LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000',
  LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000',
  // What the stack sets with -c blueskyOAuthClient=production -c feedPublisherDid=…
  LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production',
  LOREBOOK_SIGN_IN_KEY_SECRET_ID: KEY_SECRET_ARN,
  BLUESKY_FEED_PUBLISHER_DID: FEED_DID,
  LOREBOOK_OAUTH_CLIENT_SECONDS: String(CLIENT_SECONDS),
  LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS: String(PENDING_CLIENT_SECONDS),
  LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS),
  LOREBOOK_BLUESKY_HANDLE_RESOLVER: NOWHERE,
  LOREBOOK_PLC_DIRECTORY_URL: NOWHERE,
  ...extra,
});

function lambda(options: { extra?: NodeJS.ProcessEnv; recheckMs?: number } = {}) {
  const logs: string[] = [];
  const handler = createHttpHandler({
    env: env(options.extra),
    secrets: secrets.client(),
    log: (line) => void logs.push(line),
    ...(options.recheckMs === undefined ? {} : { secretRecheckMs: options.recheckMs }),
  });
  return { fetch: functionUrlFetch(handler), logs };
}

const html = { headers: { accept: 'text/html' } };

describe('Sign in with Bluesky on Lambda, the key read from Secrets Manager', () => {
  it('the authorization server metadata names the Function URL as issuer, with its endpoints there', async () => {
    const { fetch } = lambda();
    const answer = await fetch(`${FUNCTION_URL}/.well-known/oauth-authorization-server`);
    expect(answer.status).toBe(200);
    const metadata = (await answer.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: FUNCTION_URL,
      authorization_endpoint: `${FUNCTION_URL}/oauth/authorize`,
      token_endpoint: `${FUNCTION_URL}/oauth/token`,
      registration_endpoint: `${FUNCTION_URL}/oauth/register`,
    });
  });

  it('with a key in the secret, /auth/login is mounted: the handle form, and a clear page for a handle that does not resolve', async () => {
    const { fetch, logs } = lambda();
    const form = await fetch(`${FUNCTION_URL}/auth/login?return_to=/account`, html);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Sign in to lorebook with Bluesky');
    const unknown = await fetch(`${FUNCTION_URL}/auth/login?handle=nobody.example.com`, html);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No Bluesky account could be found for &quot;nobody.example.com&quot;');
    expect(logs).toContainEqual(`lorebook: Sign in with Bluesky is on (production client): ${FUNCTION_URL}/auth/login`);
  });

  it("the production client's metadata and JWKS are served at the Function URL: private_key_jwt, and only the public half of the key", async () => {
    const { fetch } = lambda();
    const metadata = (await (await fetch(`${FUNCTION_URL}/oauth/client-metadata.json`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      client_id: `${FUNCTION_URL}/oauth/client-metadata.json`,
      redirect_uris: [`${FUNCTION_URL}/auth/callback`],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `${FUNCTION_URL}/oauth/jwks.json`,
    });
    const { keys } = (await (await fetch(`${FUNCTION_URL}/oauth/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kid: 'lorebook-1', kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y });
    expect(keys[0]?.d).toBeUndefined();
  });

  it("the key's secret is read once across many invocations, concurrent first ones included", async () => {
    const before = secrets.reads();
    const { fetch, logs } = lambda();
    const first = await Promise.all(Array.from({ length: 8 }, () => fetch(`${FUNCTION_URL}/auth/login`, html)));
    for (let call = 0; call < 12; call += 1) expect((await fetch(`${FUNCTION_URL}/oauth/jwks.json`)).status).toBe(200);
    expect(first.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(secrets.reads() - before).toBe(1);
    // One app built: one sign-in line, one cold start.
    expect(logs.filter((line) => line.includes('Sign in with Bluesky is'))).toHaveLength(1);
    expect(logs.filter((line) => line.includes('http cold start'))).toHaveLength(1);
  });

  it("a device-flow start through the Function URL points at the Function URL's /device page", async () => {
    const { fetch } = lambda();
    const answer = await fetch(`${FUNCTION_URL}/v1/auth/device/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=lambda-test',
    });
    expect(answer.status).toBe(200);
    const started = (await answer.json()) as { verification_uri: string; user_code: string };
    expect(started.verification_uri).toBe(`${FUNCTION_URL}/device`);
  });

  it('the OAuth server keeps LOREBOOK_OAUTH_PENDING_CLIENT_SECONDS: a client registered through the handler (twice: one client) expires after that long until it completes an authorization', async () => {
    const { fetch } = lambda();
    const register = () =>
      fetch(`${FUNCTION_URL}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'lambda parity', redirect_uris: ['http://127.0.0.1:33418/callback'] }),
      });
    const first = await register();
    expect(first.status).toBe(201);
    const registered = (await first.json()) as { client_id: string };
    expect(await (await register()).json()).toEqual(registered);
    const stored = await readItem(app.ctx().store, oauthClientKey(registered.client_id));
    expect(stored).toBeDefined();
    const client = toOAuthClient(stored as NonNullable<typeof stored>);
    expect(client.expires_at - client.client_id_issued_at).toBe(PENDING_CLIENT_SECONDS);
  });

  it("a whole authorization code flow through the handler: the consent lands in the function's log, the token lives LOREBOOK_OAUTH_ACCESS_TOKEN_SECONDS, the client is then kept LOREBOOK_OAUTH_CLIENT_SECONDS", async () => {
    const { fetch, logs } = lambda();
    // Signed in as /auth/callback leaves a person (a real PDS sign-in needs a public client_id).
    const person = await signedInPerson(app.ctx(), 'lambda-consent');
    const redirectUri = 'http://127.0.0.1:33421/callback';
    const registered = await fetch(`${FUNCTION_URL}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'lambda flow', redirect_uris: [redirectUri] }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const pkce = pkcePair();
    const resource = `${FUNCTION_URL}/mcp`;
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource,
      state: 'st',
    });
    const page = await fetch(`${FUNCTION_URL}/oauth/authorize?${query.toString()}`, {
      headers: { cookie: person.cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(page.status).toBe(200);
    const form = new URLSearchParams({ consent: consentSecretOf(await page.text()), decision: 'approve' });
    const approved = await fetch(`${FUNCTION_URL}/oauth/consent`, {
      method: 'POST',
      headers: { cookie: person.cookie, origin: FUNCTION_URL, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = await fetch(`${FUNCTION_URL}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: pkce.verifier,
        client_id,
        resource,
      }).toString(),
    });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { expires_in: number }).expires_in).toBe(ACCESS_TOKEN_SECONDS);
    expect(logs).toContainEqual(expect.stringContaining(`lorebook: oauth consent approved: "lambda flow"`));
    // The client completed an authorization: it is now kept LOREBOOK_OAUTH_CLIENT_SECONDS.
    const client = toOAuthClient(
      (await readItem(app.ctx().store, oauthClientKey(client_id))) as NonNullable<Awaited<ReturnType<typeof readItem>>>,
    );
    expect(client.expires_at - Math.floor(app.ctx().store.now() / 1000)).toBeGreaterThan(CLIENT_SECONDS - 60);
    expect(client.expires_at - Math.floor(app.ctx().store.now() / 1000)).toBeLessThanOrEqual(CLIENT_SECONDS);
  });
});

describe("while the key's secret holds the stack's placeholder", () => {
  it('sign-in is off with a clear answer — a page for browsers, problem+json for the rest — and /oauth/authorize and /account lead there; the log says which secret to fill', async () => {
    secrets.set(UNSET_SIGN_IN_KEY);
    try {
      const { fetch, logs } = lambda();
      const page = await fetch(`${FUNCTION_URL}/auth/login?return_to=/account`, html);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('Sign in with Bluesky is not turned on on this lorebook server');
      const problem = await fetch(`${FUNCTION_URL}/auth/login`);
      expect(problem.status).toBe(404);
      expect(problem.headers.get('content-type')).toContain('application/problem+json');
      expect(await problem.json()).toMatchObject({ code: 'not_found', retryable: false, details: { reason: 'sign_in_off' } });
      const account = await fetch(`${FUNCTION_URL}/account`, { ...html, redirect: 'manual' });
      expect(account.status).toBe(302);
      expect(account.headers.get('location')).toMatch(/^\/auth\/login\?/);
      const redirectUri = 'http://127.0.0.1:33419/callback';
      const registered = await fetch(`${FUNCTION_URL}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'sign-in off', redirect_uris: [redirectUri] }),
      });
      const { client_id } = (await registered.json()) as { client_id: string };
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: redirectUri,
        code_challenge: s256('a-verifier-long-enough-for-pkce-0123456789abcdef'),
        code_challenge_method: 'S256',
        resource: `${FUNCTION_URL}/mcp`,
        state: 'st',
      });
      const authorize = await fetch(`${FUNCTION_URL}/oauth/authorize?${query.toString()}`, { ...html, redirect: 'manual' });
      expect(authorize.status).toBe(302);
      const login = authorize.headers.get('location') ?? '';
      expect(login).toMatch(/^\/auth\/login\?return_to=/);
      expect((await fetch(`${FUNCTION_URL}${login}`, html)).status).toBe(404);
      expect((await fetch(`${FUNCTION_URL}/oauth/client-metadata.json`)).status).toBe(404);
      expect(logs).toContainEqual(
        expect.stringMatching(new RegExp(`Sign in with Bluesky is off \\(the secret ${KEY_SECRET_ARN} still holds its placeholder`)),
      );
    } finally {
      secrets.set(JSON.stringify(privateJwk));
    }
  });

  it('the placeholder is believed for the recheck interval; once the key is put in, the next read turns sign-in on without a new cold start', async () => {
    secrets.set(UNSET_SIGN_IN_KEY);
    try {
      const before = secrets.reads();
      const patient = lambda({ recheckMs: 60_000 });
      for (let call = 0; call < 3; call += 1) expect((await patient.fetch(`${FUNCTION_URL}/auth/login`, html)).status).toBe(404);
      expect(secrets.reads() - before).toBe(1);

      const eager = lambda({ recheckMs: 0 });
      expect((await eager.fetch(`${FUNCTION_URL}/auth/login`, html)).status).toBe(404);
      secrets.set(JSON.stringify(privateJwk));
      expect((await eager.fetch(`${FUNCTION_URL}/auth/login`, html)).status).toBe(200);
      expect(eager.logs.filter((line) => line.includes('http cold start'))).toHaveLength(1);
      expect(eager.logs).toContainEqual(expect.stringContaining('Sign in with Bluesky is on (production client)'));
    } finally {
      secrets.set(JSON.stringify(privateJwk));
    }
  });

  it('a failed secret read does not take the site down: the request is answered without sign-in, and the next one reads again and turns it on', async () => {
    secrets.set(JSON.stringify(privateJwk), { fail: 1 });
    const before = secrets.reads();
    const { fetch, logs } = lambda();
    expect((await fetch(`${FUNCTION_URL}/v1/stories`)).status).toBe(200);
    expect((await fetch(`${FUNCTION_URL}/auth/login`, html)).status).toBe(200);
    expect(secrets.reads() - before).toBe(2);
    expect(logs).toContainEqual(expect.stringContaining(`could not read the sign-in key's secret ${KEY_SECRET_ARN}`));
  });

  it('a secret that holds something other than a private JWK turns sign-in off and says why; the rest answers', async () => {
    secrets.set('{"kty":"EC","crv":"P-256"}');
    try {
      const { fetch, logs } = lambda();
      expect((await fetch(`${FUNCTION_URL}/auth/login`, html)).status).toBe(404);
      expect((await fetch(`${FUNCTION_URL}/v1/stories`)).status).toBe(200);
      expect(logs).toContainEqual(
        expect.stringMatching(/Sign in with Bluesky is off \(LOREBOOK_OAUTH_PRIVATE_KEY must be a private JWK.*read from the secret/),
      );
    } finally {
      secrets.set(JSON.stringify(privateJwk));
    }
  });
});

describe('the Bluesky feed generator on Lambda', () => {
  it("describeFeedGenerator lists the feed record when BLUESKY_FEED_PUBLISHER_DID is set, as the Function URL's did:web", async () => {
    const { fetch, logs } = lambda({ extra: { BLUESKY_FEED_RKEY: 'stories' } });
    const described = (await (await fetch(`${FUNCTION_URL}/xrpc/app.bsky.feed.describeFeedGenerator`)).json()) as {
      did: string;
      feeds: { uri: string }[];
    };
    expect(described).toEqual({
      did: `did:web:${FUNCTION_URL_DOMAIN}`,
      feeds: ['stories', 'tag-typescript', 'tag-dynamodb', 'needs-repro'].map((rkey) => ({
        uri: `at://${FEED_DID}/app.bsky.feed.generator/${rkey}`,
      })),
    });
    const skeleton = await fetch(
      `${FUNCTION_URL}/xrpc/app.bsky.feed.getFeedSkeleton?feed=${encodeURIComponent(described.feeds[0]?.uri ?? '')}`,
    );
    expect(skeleton.status).toBe(200);
    expect(logs).toContainEqual(`lorebook: the Bluesky feed generator serves at://${FEED_DID}/app.bsky.feed.generator/stories`);
  });

  it('without a publisher DID it lists no feed', async () => {
    const { fetch } = lambda({ extra: { BLUESKY_FEED_PUBLISHER_DID: '' } });
    const described = (await (await fetch(`${FUNCTION_URL}/xrpc/app.bsky.feed.describeFeedGenerator`)).json()) as { feeds: unknown[] };
    expect(described.feeds).toEqual([]);
  });
});
