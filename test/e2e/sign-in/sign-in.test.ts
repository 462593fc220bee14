// Sign in with Bluesky against the real test PDS: the account is keyed by the DID and shows the
// handle the person has now.
import { describe, expect, it } from 'vitest';
import { readWebSession } from '../../../src/app/sign-in/web-session.ts';
import { authorizeWithBluesky, deliverCallback, signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds, logs } = useSignInServer('e2e-sign-in');

describe('Sign in with Bluesky', () => {
  it('signs a person in with their PDS: the account is their DID, the handle theirs, the browser sent to return_to', async () => {
    const alice = await pds().createAccount('alice');
    const { cookie, finalUrl } = await signInWithBluesky({
      baseUrl: server.baseUrl(),
      handle: alice.handle,
      password: alice.password,
      returnTo: '/device?user_code=ABCD-EFGH',
    });
    expect(finalUrl).toBe(`${server.baseUrl()}/device?user_code=ABCD-EFGH`);
    const session = await readWebSession(server.app.ctx(), cookie);
    expect(session).toEqual({ accountId: alice.did, handle: alice.handle, expiresAt: expect.any(Number) });
    const items = await server.app.state();
    expect(items.filter((item) => item.PK === `ACCOUNT#${alice.did}`)).toEqual([
      { PK: `ACCOUNT#${alice.did}`, SK: 'META', id: alice.did, handle: alice.handle, created_at: expect.any(String) },
      // The session's index item, so an account deletion finds the session (design.md#account-deletion).
      {
        PK: `ACCOUNT#${alice.did}`,
        SK: expect.stringMatching(/^WEBSESS#[0-9a-f]{64}$/),
        session_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        expires_at: expect.any(Number),
      },
    ]);
    expect(items.filter((item) => item.PK === `HANDLE#${alice.handle}`)).toEqual([
      { PK: `HANDLE#${alice.handle}`, SK: 'META', handle: alice.handle, account: alice.did, created_at: expect.any(String) },
    ]);
    // The PDS session was given back: lorebook keeps no tokens of the person's.
    expect(items.filter((item) => String(item.PK).startsWith('BSKYSESS#'))).toEqual([]);
    expect(logs).toContain(`lorebook: sign-in new account ${alice.did} as @${alice.handle}`);
  });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/ (not Secure on an http base URL) and the answer is not cached', async () => {
    const bob = await pds().createAccount('bob');
    const { callbackUrl, jar } = await authorizeWithBluesky({ baseUrl: server.baseUrl(), handle: bob.handle, password: bob.password });
    const answer = await deliverCallback(callbackUrl, jar);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${server.baseUrl()}/account`);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['set-cookie']).toEqual([
      expect.stringMatching(/^lorebook_session=lbs_[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
  });

  it('GET /auth/login without a handle is a plain sign-in form that carries return_to', async () => {
    const page = await server.fetch('/auth/login?return_to=/device');
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('<form method="get" action="/auth/login">');
    expect(body).toContain('name="return_to" value="/device"');
    expect(body).not.toContain('<script');
  });
});
