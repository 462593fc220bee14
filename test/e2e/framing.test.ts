// No HTML answer may be framed by another site: every registered route of the real app is called
// (GET and POST, signed in and not, with the values that reach its pages: a story, a tombstone, a
// missing slug, a pending device code, a consent request), and every answer that is HTML carries
// `X-Frame-Options: DENY` and a CSP with `frame-ancestors 'none'`. The walk must reach each page
// the issue names, the /device confirm page first among them, so it cannot pass by seeing none.
import { beforeAll, describe, expect, it } from 'vitest';
import { startDeviceAuthorization } from '../../src/app/oauth-server/device-flow.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { type LorebookServer, useLorebookServer } from '../helpers/lorebook-server.ts';
import { authorizePath, newClient, type Person, pkcePair, signedInPerson } from '../helpers/oauth/oauth-flow.ts';
import { storyTitled } from '../helpers/stories.ts';

// Sign-in on, with a loopback client that is never asked to resolve anything (no handle is typed).
const server = useLorebookServer('e2e-framing', {
  signIn: () => ({
    config: { mode: 'loopback', handleResolver: 'http://127.0.0.1:9', plcDirectoryUrl: 'http://127.0.0.1:9' },
    log: () => {},
  }),
});
const signInOff = useLorebookServer('e2e-framing-sign-in-off');
/** About a hundred requests one after another: a second or two alone, far longer on a loaded machine. */
const WALK_TIMEOUT_MS = 180_000;

let person: Person;
let story = '';
let withdrawn = '';
let userCode = '';
let consentQuery = '';

beforeAll(async () => {
  const ctx = server.app.ctx();
  person = await signedInPerson(ctx, 'framed');
  const author = { account: person.did, handle: person.handle };
  story = (await publishStory(ctx, author, { markdown: storyTitled('A page nobody may frame') })).slug;
  withdrawn = (await publishStory(ctx, author, { markdown: storyTitled('A tombstone nobody may frame') })).slug;
  await setVisibility(ctx, author, { slug: withdrawn, hidden: true });
  userCode = (await startDeviceAuthorization(ctx, 'framing-test')).user_code;
  const client = await newClient(server.baseUrl(), 'Framing test app');
  consentQuery = authorizePath({
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    code_challenge: pkcePair().challenge,
    state: 'st',
  }).split('?')[1] as string;
});

interface Call {
  method: string;
  path: string;
  signedIn: boolean;
}

/** Every concrete request the walk sends for one registered route. */
function callsFor(method: string, route: string): Call[] {
  const paths = [route.replace(':name', story).replace(':handle', person.handle)];
  if (route === '/s/:name') paths.push(`/s/${withdrawn}`, '/s/2026-01-01-nobody-wrote-this', '/s/not a slug');
  if (route === '/a/:handle') paths.push('/a/nobody.example');
  if (route === '/device') paths.push(`/device?user_code=${userCode}`, '/device?user_code=WRONG-CODE');
  if (route === '/oauth/authorize') paths.push(`/oauth/authorize?${consentQuery}`);
  return paths.flatMap((path) => [true, false].map((signedIn) => ({ method, path, signedIn })));
}

interface Seen {
  call: Call;
  status: number;
  headers: Headers;
  body: string;
}

async function send(target: LorebookServer, call: Call): Promise<Seen> {
  const headers: Record<string, string> = {
    Accept: 'text/html',
    Origin: target.baseUrl(),
    ...(call.signedIn ? { Cookie: person.cookie } : {}),
  };
  const init: RequestInit = { method: call.method, headers, redirect: 'manual' };
  if (call.method === 'POST') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    init.body = call.path === '/device' ? new URLSearchParams({ user_code: userCode, decision: 'deny' }).toString() : '';
  }
  const response = await target.fetch(call.path, init);
  return { call, status: response.status, headers: response.headers, body: await response.text() };
}

/** Each registered method and path once; `*` middleware entries are not routes. */
const routesOf = (target: LorebookServer): Array<[string, string]> => {
  const seen = new Set<string>();
  const routes: Array<[string, string]> = [];
  for (const { method, path } of target.hono().routes) {
    if (method === 'ALL' || path.includes('*') || seen.has(`${method} ${path}`)) continue;
    seen.add(`${method} ${path}`);
    routes.push([method, path]);
  }
  return routes;
};

async function htmlAnswers(target: LorebookServer): Promise<Seen[]> {
  const answers: Seen[] = [];
  // One after another, and the calls that end something last: deciding the device code the
  // confirm page shows, then signing out (which ends the web session every signed-in call uses).
  const rank = (call: Call): number => (call.method !== 'POST' ? 0 : call.path === '/device' ? 1 : call.path === '/auth/logout' ? 2 : 0);
  const calls = routesOf(target).flatMap(([method, path]) => callsFor(method, path));
  calls.sort((a, b) => rank(a) - rank(b));
  for (const call of calls) {
    const answer = await send(target, call);
    if ((answer.headers.get('content-type') ?? '').startsWith('text/html')) answers.push(answer);
  }
  return answers;
}

const expectUnframeable = (answer: Seen): void => {
  const where = `${answer.call.method} ${answer.call.path} (${answer.call.signedIn ? 'signed in' : 'anonymous'}, ${answer.status})`;
  expect(answer.headers.get('x-frame-options'), where).toBe('DENY');
  const policy = answer.headers.get('content-security-policy') ?? '';
  expect(
    policy.split(';').map((directive) => directive.trim()),
    where,
  ).toContain("frame-ancestors 'none'");
  expect(policy.match(/frame-ancestors/g), where).toHaveLength(1);
};

describe('framing', () => {
  it('the /device confirm page (Approve / Deny for a pending code) says DENY and frame-ancestors none', async () => {
    const { user_code: code } = await startDeviceAuthorization(server.app.ctx(), 'framing-confirm');
    const answer = await send(server, { method: 'GET', path: `/device?user_code=${code}`, signedIn: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('name="decision" value="approve"');
    expectUnframeable(answer);
  });

  it(
    'every HTML answer of every route, pages, sign-in, device, consent, account and error pages, refuses to be framed',
    async () => {
      const answers = await htmlAnswers(server);
      for (const answer of answers) expectUnframeable(answer);
      const reached = (pattern: RegExp, page: string) =>
        expect(
          answers.some((answer) => pattern.test(`${answer.call.method} ${answer.call.path}`) && answer.body.includes(page)),
          String(pattern),
        ).toBe(true);
      reached(new RegExp(`^GET /device\\?user_code=${userCode}$`), 'name="decision"');
      reached(/^GET \/device$/, 'user_code');
      reached(/^POST \/device$/, '</html>');
      reached(/^GET \/oauth\/authorize\?/, 'name="consent"');
      reached(/^POST \/oauth\/consent$/, '</html>');
      reached(/^GET \/account$/, '</html>');
      reached(/^GET \/auth\/login$/, '</html>');
      reached(/^GET \/$/, 'A page nobody may frame');
      reached(new RegExp(`^GET /s/${story}$`), 'A page nobody may frame');
      reached(new RegExp(`^GET /s/${withdrawn}$`), '</html>');
      reached(/^GET \/s\/2026-01-01-nobody-wrote-this$/, '</html>');
      reached(/^GET \/a\//, '</html>');
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'the sign-in-off page refuses to be framed too',
    async () => {
      const answers = await htmlAnswers(signInOff);
      expect(answers.map((answer) => answer.call.path)).toContain('/auth/login');
      for (const answer of answers) expectUnframeable(answer);
    },
    WALK_TIMEOUT_MS,
  );
});
