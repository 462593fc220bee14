// The web session: read from the cookie (expired or malformed = signed out), and POST
// /auth/logout, which deletes it and is fine to deliver twice or sixteen times at once.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { readWebSession, startWebSession, WEB_SESSION_COOKIE, WEB_SESSION_SECONDS } from '../../../src/app/sign-in/web-session.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';

// Logging out needs no PDS: the session is started directly, as the callback would.
const server = useLorebookServer('e2e-web-session', { signIn: () => ({ config: { mode: 'loopback' }, log: () => undefined }) });
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

async function signedIn(name: string): Promise<{ cookie: string; account: string }> {
  const account = `did:plc:${name.padEnd(24, 'x')}`;
  await ensureAccount(server.app.ctx(), { account, handle: `${name}.test` });
  const { cookieValue } = await startWebSession(server.app.ctx(), account);
  return { cookie: `${WEB_SESSION_COOKIE}=${cookieValue}`, account };
}

const logout = (cookie: string | undefined, accept = 'application/json') =>
  server.fetch('/auth/logout', { method: 'POST', redirect: 'manual', headers: { accept, ...(cookie === undefined ? {} : { cookie }) } });

describe('The web session', () => {
  it('is read from the cookie: the account and its current handle; the store keeps only the hash', async () => {
    const { cookie, account } = await signedIn('alice');
    expect(await readWebSession(server.app.ctx(), `other=1; ${cookie}`)).toEqual({
      accountId: account,
      handle: 'alice.test',
      expiresAt: expect.any(Number),
    });
    const items = (await stored()).filter((item) => String(item.PK).startsWith('WEBSESS#'));
    expect(JSON.stringify(items)).not.toContain(cookie.split('=')[1]);
  });

  it('an expired session is signed out, whatever DynamoDB still returns', async () => {
    const { cookie } = await signedIn('bob');
    server.app.advance(WEB_SESSION_SECONDS * 1000 + 1000);
    expect(await readWebSession(server.app.ctx(), cookie)).toBeUndefined();
  });

  it('no cookie, or one that is not a session cookie, is signed out without a read', async () => {
    server.app.counter().reset();
    expect(await readWebSession(server.app.ctx(), undefined)).toBeUndefined();
    expect(await readWebSession(server.app.ctx(), `${WEB_SESSION_COOKIE}=forged`)).toBeUndefined();
    expect(server.app.counter().total()).toBe(0);
  });
});

describe('POST /auth/logout', () => {
  it('deletes the session and clears the cookie; a second logout changes nothing and is fine', async () => {
    const { cookie } = await signedIn('carol');
    const first = await logout(cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ signed_out: true, ended: true });
    expect(first.headers.get('set-cookie')).toMatch(new RegExp(`^${WEB_SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`));
    expect(await readWebSession(server.app.ctx(), cookie)).toBeUndefined();
    const after = await stored();
    const second = await logout(cookie);
    expect(await second.json()).toEqual({ signed_out: true, ended: false });
    expect(await stored()).toEqual(after);
  });

  it('16 logouts at once: all answer signed out, exactly one ended the session', async () => {
    const { cookie } = await signedIn('dave');
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 16 }, async () => (await logout(cookie)).json() as Promise<{ ended: boolean }>));
    expect(answers.filter((a) => a.ended)).toHaveLength(1);
    const after = await stored();
    expect(before.length - after.length).toBe(1);
  });

  it('a browser form post is sent on with 303 to a path on this server', async () => {
    const { cookie } = await signedIn('erin');
    const answer = await server.fetch('/auth/logout?return_to=/s/some-story', {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: 'text/html', cookie, origin: server.baseUrl() },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/s/some-story');
    expect(await readWebSession(server.app.ctx(), cookie)).toBeUndefined();
  });
});
