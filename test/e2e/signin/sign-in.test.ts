// Sign in with Bluesky against the real test PDS: the account is keyed by the DID and shows the
// handle the person has now.
import { describe, expect, it } from 'vitest';
import { readWebSession } from '../../../src/auth/web-session.ts';
import { signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds, logs } = useSignInServer('e2e-sign-in');

describe('Sign in with Bluesky', () => {
  it('signs a person in with their PDS: the account is their DID, the handle theirs, the browser sent to return_to', async () => {
    const alice = await pds().createAccount('alice');
    const { cookie, finalUrl } = await signInWithBluesky({ baseUrl: server.baseUrl(), handle: alice.handle, password: alice.password, returnTo: '/device?user_code=ABCD-EFGH' });
    expect(finalUrl).toBe(`${server.baseUrl()}/device?user_code=ABCD-EFGH`);
    const session = await readWebSession(server.app.ctx(), cookie);
    expect(session).toEqual({ accountId: alice.did, handle: alice.handle, expiresAt: expect.any(Number) });
    const items = await server.app.state();
    expect(items.filter((item) => item.PK === `ACCOUNT#${alice.did}`)).toEqual([
      { PK: `ACCOUNT#${alice.did}`, SK: 'META', id: alice.did, handle: alice.handle, created_at: expect.any(String) },
    ]);
    expect(items.filter((item) => item.PK === `HANDLE#${alice.handle}`)).toEqual([
      { PK: `HANDLE#${alice.handle}`, SK: 'META', handle: alice.handle, account: alice.did, created_at: expect.any(String) },
    ]);
    // The PDS session was given back: lorebook keeps no tokens of the person's.
    expect(items.filter((item) => String(item.PK).startsWith('BSKYSESS#'))).toEqual([]);
    expect(logs).toContain(`lorebook: sign-in new account ${alice.did} as @${alice.handle}`);
  });
});
