// Sign-in refusals, each with the state of the table before and after: a wrong Bluesky password,
// an unknown handle, a malformed one, a consent denied at the PDS, a return_to off this server.
import { describe, expect, it } from 'vitest';
import { send } from '../../helpers/signin/http-client.ts';
import { authorizeWithBluesky, CookieJar, deliverCallback, SignInRefused } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds } = useSignInServer('e2e-sign-in-refusals');
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

const people = (items: Record<string, unknown>[]) => items.filter((item) => /^(ACCOUNT|HANDLE|WEBSESS|BSKYSESS)#/.test(String(item.PK)));

describe('Sign-in refusals', () => {
  it('a wrong Bluesky password is refused by the PDS and makes no account, handle or session', async () => {
    const carol = await pds().createAccount('carol');
    const before = await stored();
    const refused = await authorizeWithBluesky({ baseUrl: server.baseUrl(), handle: carol.handle, password: 'not-her-password' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SignInRefused);
    expect(refused).toMatchObject({ step: 'PDS sign-in', status: 400 });
    expect((refused as SignInRefused).body).toMatch(/invalid identifier or password/i);
    const after = await stored();
    expect(people(after)).toEqual(people(before));
    // Only the pending sign-in itself, which expires on its own (10 min).
    const added = after.filter((item) => !before.some((old) => old.PK === item.PK));
    expect(added).toEqual([
      expect.objectContaining({ PK: expect.stringMatching(/^OAUTHSTATE#[0-9a-f]{64}$/), expires_at: expect.any(Number) }),
    ]);
    expect(added[0]).not.toHaveProperty('used_at');
  });

  it('an unknown handle is a clear not_found page and writes nothing', async () => {
    const before = await stored();
    const page = await send('GET', `${server.baseUrl()}/auth/login?handle=nobody-here.test`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('No Bluesky account could be found for &quot;nobody-here.test&quot;');
    expect(page.body).toContain('<code>not_found</code>');
    const api = await server.fetch('/auth/login?handle=nobody-here.test', { redirect: 'manual' });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    expect(api.headers.get('cache-control')).toBe('no-store');
    expect(await api.json()).toMatchObject({ code: 'not_found', details: { handle: 'nobody-here.test', reason: 'unknown_handle' } });
    expect(await stored()).toEqual(before);
  });

  it('something that is not a handle is validation_failed and writes nothing', async () => {
    const before = await stored();
    const answer = await server.fetch(`/auth/login?handle=${encodeURIComponent('not a handle!')}`, { redirect: 'manual' });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ code: 'validation_failed', details: { fields: { handle: expect.any(String) } } });
    expect(await stored()).toEqual(before);
  });

  it('a return_to off this server is refused before anything is written (no open redirect)', async () => {
    const dave = await pds().createAccount('dave');
    const before = await stored();
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'account']) {
      const answer = await server.fetch(`/auth/login?handle=${dave.handle}&return_to=${encodeURIComponent(returnTo)}`, {
        redirect: 'manual',
      });
      expect(answer.status, returnTo).toBe(422);
      expect(await answer.json()).toMatchObject({ code: 'validation_failed', details: { fields: { return_to: expect.any(String) } } });
    }
    expect(await stored()).toEqual(before);
  });

  it('a consent denied at the PDS comes back as a forbidden page: no account, no session, the link used up', async () => {
    const erin = await pds().createAccount('erin');
    const before = await stored();
    const jar = new CookieJar();
    const { callbackUrl } = await authorizeWithBluesky({
      baseUrl: server.baseUrl(),
      handle: erin.handle,
      password: erin.password,
      consent: 'deny',
      cookieJar: jar,
    });
    expect(new URL(callbackUrl).searchParams.get('error')).toBe('access_denied');
    const page = await deliverCallback(callbackUrl, jar);
    expect(page.status).toBe(403);
    expect(page.body).toContain('did not sign you in (access_denied');
    expect(jar.get(server.baseUrl(), 'lorebook_session')).toBeUndefined();
    expect(people(await stored())).toEqual(people(before));
  });

  it('a callback after the 10 minutes a sign-in lasts is refused as expired and makes no account', async () => {
    const gina = await pds().createAccount('gina');
    const jar = new CookieJar();
    const { callbackUrl } = await authorizeWithBluesky({
      baseUrl: server.baseUrl(),
      handle: gina.handle,
      password: gina.password,
      cookieJar: jar,
    });
    server.app.advance(11 * 60 * 1000);
    const before = await stored();
    const page = await deliverCallback(callbackUrl, jar);
    expect(page.status).toBe(404);
    expect(page.body).toContain('unknown or has expired');
    expect(jar.get(server.baseUrl(), 'lorebook_session')).toBeUndefined();
    expect(await stored()).toEqual(before);
  });

  it('a PDS that fails the code exchange is upstream_failed (502), not "already used", and makes no account', async () => {
    const hal = await pds().createAccount('hal');
    const jar = new CookieJar();
    const { callbackUrl } = await authorizeWithBluesky({
      baseUrl: server.baseUrl(),
      handle: hal.handle,
      password: hal.password,
      cookieJar: jar,
    });
    await pds().stop();
    try {
      const page = await deliverCallback(callbackUrl, jar);
      expect(page.status).toBe(502);
      expect(page.body).toContain('did not confirm the sign-in');
      expect(page.body).toContain('<code>upstream_failed</code>');
    } finally {
      await pds().start();
    }
    expect((await stored()).filter((item) => item.PK === `ACCOUNT#${hal.did}` || String(item.PK).startsWith('BSKYSESS#'))).toEqual([]);
  });
});
