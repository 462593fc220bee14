// The OAuth authorization code flow against a running lorebook, step by step, as a client and
// a browser do it over HTTP, so each refusal test can stop or deviate at exactly one step. A
// person is signed in with a real web session (the one /auth/callback starts); the Bluesky part
// itself is proven by the MCP SDK end-to-end test against the real PDS.
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { recordBlueskySignIn } from '../../../src/app/sign-in/bluesky-sign-in.ts';
import { startWebSession, WEB_SESSION_COOKIE } from '../../../src/app/sign-in/web-session.ts';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface Person {
  did: string;
  handle: string;
  /** `lorebook_session=…` */
  cookie: string;
}

/** A Bluesky person as /auth/callback leaves them: an account keyed by DID and a web session. */
export async function signedInPerson(ctx: AppContext, name: string): Promise<Person> {
  const did = `did:plc:${createHash('sha256').update(name).digest('hex').slice(0, 24)}`;
  const handle = `${name}.test`;
  await recordBlueskySignIn(ctx, { did, handle });
  const session = await startWebSession(ctx, did);
  return { did, handle, cookie: `${WEB_SESSION_COOKIE}=${session.cookieValue}` };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): Record<string, unknown>;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

export async function post(
  baseUrl: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return answer(
    await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    }),
  );
}

export async function get(baseUrl: string, pathAndQuery: string, cookie?: string): Promise<Answer> {
  return answer(await fetch(`${baseUrl}${pathAndQuery}`, { headers: cookie === undefined ? {} : { Cookie: cookie }, redirect: 'manual' }));
}

export async function registerClient(baseUrl: string, metadata: Record<string, unknown>): Promise<Answer> {
  return answer(
    await fetch(`${baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(metadata),
    }),
  );
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  resource?: string;
  state?: string;
  response_type?: string;
  scope?: string;
}

export function authorizePath(params: AuthorizeParams): string {
  const query = new URLSearchParams({ response_type: 'code', code_challenge_method: 'S256', ...params } as Record<string, string>);
  return `/oauth/authorize?${query.toString()}`;
}

/** The consent form's secret on a consent page. */
export function consentSecretOf(page: string): string {
  const secret = /name="consent" value="([^"]+)"/.exec(page)?.[1];
  if (secret === undefined) throw new Error(`no consent form on the page: ${page.slice(0, 300)}`);
  return secret;
}

/** The "Return to <host>" link of the interstitial an authorize error shows (never a redirect). */
export function returnLinkOf(page: string): URL {
  const href = /<a href="([^"]+)">Return to /.exec(page)?.[1];
  if (href === undefined) throw new Error(`no return link on the page: ${page.slice(0, 300)}`);
  return new URL(href.replaceAll('&amp;', '&'));
}

export const decide = (baseUrl: string, cookie: string, consent: string, decision: 'approve' | 'deny'): Promise<Answer> =>
  post(baseUrl, '/oauth/consent', { consent, decision }, { Cookie: cookie, Origin: baseUrl });

export interface Client {
  client_id: string;
  redirect_uri: string;
}

export async function newClient(baseUrl: string, name = `app-${randomBytes(4).toString('hex')}`): Promise<Client> {
  const redirectUri = `http://127.0.0.1:${40000 + (randomBytes(2).readUInt16BE() % 20000)}/callback`;
  const registered = await registerClient(baseUrl, { client_name: name, redirect_uris: [redirectUri] });
  if (registered.status !== 201) throw new Error(`registration refused: ${registered.text}`);
  return { client_id: String(registered.json().client_id), redirect_uri: redirectUri };
}

/** Authorize + consent (approve): the authorization code and the PKCE pair it is bound to. */
export async function authorizationCode(
  baseUrl: string,
  person: Person,
  client: Client,
  extra: Partial<AuthorizeParams> = {},
): Promise<{ code: string; pkce: Pkce; location: URL }> {
  const pkce = pkcePair();
  const page = await get(
    baseUrl,
    authorizePath({
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      code_challenge: pkce.challenge,
      resource: `${baseUrl}/mcp`,
      state: 'st',
      ...extra,
    }),
    person.cookie,
  );
  if (page.status !== 200) throw new Error(`no consent page: ${page.status} ${page.text.slice(0, 300)}`);
  const approved = await decide(baseUrl, person.cookie, consentSecretOf(page.text), 'approve');
  const location = new URL(approved.headers.get('location') ?? '');
  const code = location.searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location.href}`);
  return { code, pkce, location };
}

export const exchange = (
  baseUrl: string,
  client: Client,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Promise<Answer> =>
  post(baseUrl, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirect_uri,
    code_verifier: verifier,
    client_id: client.client_id,
    resource: `${baseUrl}/mcp`,
    ...extra,
  });

export const refreshWith = (baseUrl: string, client: Client, refreshToken: string): Promise<Answer> =>
  post(baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id });

/** A tools/call that needs a token: 200 with a result, or the 401 with its challenge. */
export async function callListNotifications(baseUrl: string, accessToken: string, path = '/mcp'): Promise<Answer> {
  return answer(
    await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
        Authorization: `Bearer ${accessToken}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_notifications', arguments: {} } }),
    }),
  );
}
