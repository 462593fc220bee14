// The device flow (RFC 8628) end to end: a script starts, a person signs in with Bluesky (the real
// PDS) and approves the code on /device, the script's poll gets a lorebook token for the
// person's DID, once. Timing (slow_down, expiry) moves the store clock instead of sleeping.
import { describe, expect, it } from 'vitest';
import { signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';
import { storyTitled } from '../../helpers/stories.ts';

const { server, pds } = useSignInServer('e2e-device-flow');
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

interface Started {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function start(clientId = 'my-agent-skill'): Promise<Started> {
  const answer = await server.fetch('/v1/auth/device/start', form({ client_id: clientId }));
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  return (await answer.json()) as Started;
}

async function poll(deviceCode: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await server.fetch(
    '/v1/auth/device/poll',
    form({ device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }),
  );
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const people = new Map<string, Promise<{ cookie: string; did: string; handle: string }>>();
/** A person signed in with Bluesky in a browser (once per name). */
function person(name: string) {
  let signedIn = people.get(name);
  if (signedIn === undefined) {
    signedIn = (async () => {
      const account = await pds().createAccount(name);
      const { cookie } = await signInWithBluesky({ baseUrl: server.baseUrl(), handle: account.handle, password: account.password });
      return { cookie, did: account.did, handle: account.handle };
    })();
    people.set(name, signedIn);
  }
  return signedIn;
}

const decide = async (cookie: string, userCode: string, decision: 'approve' | 'deny') =>
  server.fetch('/device', {
    ...form({ user_code: userCode, decision }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: server.baseUrl() },
  });

describe('Device flow', () => {
  it('start -> pending -> slow_down -> the person signs in and approves -> one token for their DID that works', async () => {
    const started = await start();
    expect(started).toEqual({
      device_code: expect.stringMatching(/^lbd_[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${server.baseUrl()}/device`,
      verification_uri_complete: `${server.baseUrl()}/device?user_code=${started.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    expect(await poll(started.device_code)).toEqual({
      status: 400,
      body: { error: 'authorization_pending', error_description: expect.any(String) },
    });
    // Polled again at once: slow_down, and the interval grows by 5 s for good (RFC 8628 §3.5).
    expect(await poll(started.device_code)).toMatchObject({
      status: 400,
      body: { error: 'slow_down', error_description: expect.stringContaining('wait 10 seconds') },
    });
    server.app.advance(6_000);
    expect((await poll(started.device_code)).body.error).toBe('slow_down');
    server.app.advance(16_000);
    expect((await poll(started.device_code)).body.error).toBe('authorization_pending');

    // The person opens verification_uri_complete, is sent to sign in, and comes back to it.
    const opened = await server.fetch(`/device?user_code=${started.user_code}`, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`/auth/login?return_to=${encodeURIComponent(`/device?user_code=${started.user_code}`)}`);
    const account = await pds().createAccount('alice');
    const { cookie, finalUrl } = await signInWithBluesky({
      baseUrl: server.baseUrl(),
      handle: account.handle,
      password: account.password,
      returnTo: `/device?user_code=${started.user_code}`,
    });
    expect(finalUrl).toBe(started.verification_uri_complete);
    const confirm = await server.fetch(`/device?user_code=${started.user_code.toLowerCase().replace('-', '')}`, { headers: { cookie } });
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    expect(page).toContain('Approve “my-agent-skill”?');
    expect(page).toContain(`@${account.handle}`);
    expect(page).toContain(started.user_code);
    const approved = await decide(cookie, started.user_code, 'approve');
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('Approved');

    server.app.advance(30_000);
    const granted = await poll(started.device_code);
    expect(granted).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^lbk_/),
        token: expect.stringMatching(/^lbk_/),
        token_type: 'Bearer',
        expires_in: 30 * 24 * 60 * 60,
        token_id: expect.any(String),
        account: account.did,
        handle: account.handle,
      },
    });
    expect(granted.body.token).toBe(granted.body.access_token);
    const tokens = (await stored()).filter((item) => item.PK === `TOKEN#${String(granted.body.token_id)}`);
    expect(tokens).toEqual([expect.objectContaining({ account: account.did, client: 'my-agent-skill', expires_at: expect.any(Number) })]);

    // The token works: a story published with it is the signed-in person's.
    const published = await server.fetch('/v1/stories', {
      method: 'POST',
      headers: { authorization: `Bearer ${String(granted.body.access_token)}`, 'content-type': 'text/markdown' },
      body: storyTitled('A device flow token publishes as its person'),
    });
    expect(published.status).toBe(201);
    const { slug } = (await published.json()) as { slug: string };
    const story = (await stored()).find((item) => item.PK === `STORY#${slug}` && item.SK === 'META');
    expect(story).toMatchObject({ author: account.did });
    const shown = await server.fetch(`/v1/stories/${slug}`);
    expect(JSON.stringify(await shown.json())).toContain(`"${account.handle}"`);

    // The device code is used up.
    server.app.advance(30_000);
    expect((await poll(started.device_code)).body.error).toBe('invalid_grant');
  });

  it('16 polls at once after approval make ONE token; the other 15 are told the code was used (invalid_grant)', async () => {
    const { cookie, did } = await person('bob');
    const started = await start('parallel-poller');
    await decide(cookie, started.user_code, 'approve');
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 16 }, () => poll(started.device_code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.error === 'invalid_grant')).toHaveLength(15);
    const after = await stored();
    const newTokens = after.filter((item) => String(item.PK).startsWith('TOKEN#') && !before.some((old) => old.PK === item.PK));
    expect(newTokens).toEqual([expect.objectContaining({ account: did, client: 'parallel-poller' })]);
    // Twice in a row: the next poll changes nothing either.
    expect((await poll(started.device_code)).body.error).toBe('invalid_grant');
    expect(await stored()).toEqual(after);
  });

  it('a double-clicked approval decides once: the same answer, nothing written the second time, also 16 at once', async () => {
    const { cookie } = await person('carol');
    const started = await start();
    expect((await decide(cookie, started.user_code, 'approve')).status).toBe(200);
    const after = await stored();
    const again = await decide(cookie, started.user_code, 'approve');
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Approved');
    expect(await stored()).toEqual(after);

    const other = await start();
    const clicks = await Promise.all(Array.from({ length: 16 }, () => decide(cookie, other.user_code, 'approve')));
    expect(clicks.map((c) => c.status)).toEqual(Array<number>(16).fill(200));
    const device = (await stored()).filter((item) => item.user_code === other.user_code && String(item.PK).startsWith('DEVICE#'));
    expect(device).toEqual([expect.objectContaining({ status: 'approved' })]);
  });

  it('a code approved by one person cannot be taken over by another', async () => {
    const { cookie: carol } = await person('carol');
    const { cookie: dave } = await person('dave');
    const started = await start();
    await decide(carol, started.user_code, 'approve');
    const after = await stored();
    const refused = await decide(dave, started.user_code, 'approve');
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('was already approved');
    expect(await stored()).toEqual(after);
  });

  it('a denied request answers access_denied and never issues a token', async () => {
    const { cookie, did } = await person('erin');
    const started = await start();
    const denied = await decide(cookie, started.user_code, 'deny');
    expect(await denied.text()).toContain('Denied');
    expect((await poll(started.device_code)).body.error).toBe('access_denied');
    server.app.advance(10_000);
    expect((await poll(started.device_code)).body.error).toBe('access_denied');
    expect((await stored()).filter((item) => String(item.PK).startsWith('TOKEN#') && item.account === did)).toEqual([]);
  });

  it('codes expire: expired_token for the script, a clear page for the person, nothing approvable', async () => {
    const { cookie } = await person('frank');
    const started = await start();
    server.app.advance(601_000);
    expect((await poll(started.device_code)).body.error).toBe('expired_token');
    const page = await server.fetch(`/device?user_code=${started.user_code}`, { headers: { cookie } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('codes last 10 minutes');
    expect((await decide(cookie, started.user_code, 'approve')).status).toBe(404);
  });

  it('malformed polls are refused in the OAuth error format', async () => {
    expect(await poll('lbd_not-a-code')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const missing = await server.fetch('/v1/auth/device/poll', form({}));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    const wrongGrant = await server.fetch('/v1/auth/device/poll', form({ device_code: 'x', grant_type: 'authorization_code' }));
    expect(await wrongGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const badClient = await server.fetch('/v1/auth/device/start', form({ client_id: 'x'.repeat(101) }));
    expect(await badClient.json()).toMatchObject({ error: 'invalid_request' });
  });

  describe('a start sent with an Idempotency-Key is safe to deliver twice', () => {
    const startWithKey = (key: string, clientId = 'keyed-skill') =>
      server.fetch('/v1/auth/device/start', {
        ...form({ client_id: clientId }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
      });
    const requests = async () => (await stored()).filter((item) => /^(DEVICE|USERCODE|DEVSTART)#/.test(String(item.PK)));

    it('twice in a row: the same device code and user code, Idempotent-Replayed, nothing written the second time', async () => {
      const key = 'a2b6c3e0-5f1d-4a7e-9c44-1b2d3e4f5a6b';
      const first = await startWithKey(key);
      const body = (await first.json()) as Started;
      const after = await stored();
      const second = await startWithKey(key);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual({ ...body, replayed: true });
      expect(await stored()).toEqual(after);
      // The store never holds the device code, only what derives it with the key.
      expect(JSON.stringify(after)).not.toContain(body.device_code);
    });

    it('16 at once: one request, every answer the same codes', async () => {
      const before = await requests();
      const answers = await Promise.all(
        Array.from({ length: 16 }, async () => (await startWithKey('k-parallel-0123456789abcdef')).json() as Promise<Started>),
      );
      for (const answer of answers) expect({ ...answer, replayed: undefined }).toEqual({ ...answers[0], replayed: undefined });
      expect((await requests()).length - before.length).toBe(3);
    });

    it('the replayed code works: approving it and polling with it gives the token', async () => {
      const { cookie, did } = await person('gina');
      const key = 'k-works-0123456789abcdef';
      const first = (await (await startWithKey(key)).json()) as Started;
      const replay = (await (await startWithKey(key)).json()) as Started;
      await decide(cookie, first.user_code, 'approve');
      expect(await poll(replay.device_code)).toMatchObject({ status: 200, body: { account: did } });
    });

    it('the same key for another client_id is idempotency_key_reused, and a short key is refused; nothing written', async () => {
      await startWithKey('k-reused-0123456789abcdef', 'first-client');
      const before = await stored();
      const reused = await startWithKey('k-reused-0123456789abcdef', 'second-client');
      expect(reused.status).toBe(422);
      expect(await reused.json()).toMatchObject({ code: 'idempotency_key_reused', details: { client_id: 'first-client' } });
      const short = await startWithKey('short');
      expect(short.status).toBe(422);
      expect(await short.json()).toMatchObject({
        code: 'validation_failed',
        details: { fields: { 'Idempotency-Key': expect.any(String) } },
      });
      expect(await stored()).toEqual(before);
    });
  });
});
