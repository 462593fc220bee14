// Drives "Sign in with Bluesky" end to end as a browser would, against the real test PDS:
//   lorebook /auth/login -> the PDS's authorize page -> its sign-in API (CSRF cookie + header)
//   -> consent (or reject) with the ephemeral token -> the PDS redirect -> lorebook /auth/callback.
// The PDS's JSON API under /@atproto/oauth-provider/~api/ is internal to @atproto/pds (pinned in
// package.json); it checks Sec-Fetch-*, Origin and Referer, which is why this uses node:http.
import { CookieJar, type HttpAnswer, send } from './http-client.ts';

export { CookieJar } from './http-client.ts';

const API = '/@atproto/oauth-provider/~api';
const CSRF_COOKIE = 'csrf-token';
const CSRF_HEADER = 'x-csrf-token';
const SESSION_COOKIE = 'lorebook_session';

export interface SignInOptions {
  /** lorebook's base URL, e.g. http://127.0.0.1:1234 */
  baseUrl: string;
  handle: string;
  password: string;
  returnTo?: string;
  /** Share a jar to act as one browser across calls (it keeps the PDS's and lorebook's cookies). */
  cookieJar?: CookieJar;
  /** 'deny' presses "reject" on the PDS's consent screen. Default 'allow'. */
  consent?: 'allow' | 'deny';
  /** Told how long each part took (benchmarks): 'lorebook login', then 'PDS' (its page, sign-in, consent, redirect). */
  onStep?: (step: 'lorebook login' | 'PDS', ms: number) => void;
}

/** A step of the flow answered something other than what a successful sign-in gets. */
export class SignInRefused extends Error {
  readonly step: string;
  readonly status: number;
  readonly body: string;

  constructor(step: string, answer: HttpAnswer) {
    super(`sign-in stopped at ${step}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
    this.name = 'SignInRefused';
    this.step = step;
    this.status = answer.status;
    this.body = answer.body;
  }
}

/** Everything up to (not including) the callback: the URL the PDS sends the browser back to. */
export async function authorizeWithBluesky(options: SignInOptions): Promise<{ callbackUrl: string; jar: CookieJar }> {
  const jar = options.cookieJar ?? new CookieJar();
  let began = performance.now();
  const login = new URL('/auth/login', options.baseUrl);
  login.searchParams.set('handle', options.handle);
  if (options.returnTo !== undefined) login.searchParams.set('return_to', options.returnTo);
  const started = await send('GET', login.href, { jar, headers: { accept: 'text/html' } });
  if (started.status !== 302 || started.location === undefined) throw new SignInRefused('lorebook /auth/login', started);

  options.onStep?.('lorebook login', performance.now() - began);
  began = performance.now();
  const authorizeUrl = started.location;
  const pds = new URL(authorizeUrl).origin;
  const page = await send('GET', authorizeUrl, {
    jar,
    headers: { accept: 'text/html', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  });
  if (page.status !== 200) throw new SignInRefused('PDS authorize page', page);

  const api = (path: string, body: unknown, extra: Record<string, string> = {}): Promise<HttpAnswer> =>
    send('POST', `${pds}${API}${path}`, {
      jar,
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        origin: pds,
        referer: authorizeUrl,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'same-origin',
        'sec-fetch-dest': 'empty',
        [CSRF_HEADER]: jar.get(pds, CSRF_COOKIE) ?? '',
        ...extra,
      },
    });

  let decision: HttpAnswer;
  if (options.consent === 'deny') {
    decision = await api('/reject', {});
  } else {
    const signedIn = await api('/sign-in', { locale: 'en', username: options.handle, password: options.password, remember: false });
    if (signedIn.status !== 200) throw new SignInRefused('PDS sign-in', signedIn);
    const { account, ephemeralToken } = JSON.parse(signedIn.body) as { account: { did: string }; ephemeralToken: string };
    decision = await api('/consent', { did: account.did }, { authorization: `Bearer ${ephemeralToken}` });
  }
  if (decision.status !== 200) throw new SignInRefused(options.consent === 'deny' ? 'PDS reject' : 'PDS consent', decision);
  const { url } = JSON.parse(decision.body) as { url: string };

  const back = await send('GET', new URL(url, pds).href, {
    jar,
    headers: {
      accept: 'text/html',
      referer: authorizeUrl,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    },
  });
  if (back.status !== 303 || back.location === undefined) throw new SignInRefused('PDS redirect back', back);
  options.onStep?.('PDS', performance.now() - began);
  return { callbackUrl: back.location, jar };
}

/** Delivers a callback URL as the browser would; the answer as is. */
export function deliverCallback(callbackUrl: string, jar: CookieJar = new CookieJar()): Promise<HttpAnswer> {
  return send('GET', callbackUrl, { jar, headers: { accept: 'text/html', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
}

/** The whole flow: the lorebook session cookie (`lorebook_session=…`) and where lorebook sent the browser. */
export async function signInWithBluesky(options: SignInOptions): Promise<{ cookie: string; finalUrl: string }> {
  const { callbackUrl, jar } = await authorizeWithBluesky(options);
  const answer = await deliverCallback(callbackUrl, jar);
  const session = jar.get(options.baseUrl, SESSION_COOKIE);
  if (answer.status !== 303 || answer.location === undefined || session === undefined)
    throw new SignInRefused('lorebook /auth/callback', answer);
  return { cookie: `${SESSION_COOKIE}=${session}`, finalUrl: answer.location };
}
