// A replayed callback (the same code and state delivered again: a double click, a reload, a
// history entry) makes one account and one session; a replay writes nothing.
import { describe, expect, it } from 'vitest';
import { authorizeWithBluesky, CookieJar, deliverCallback, signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';

const { server, pds, logs } = useSignInServer('e2e-sign-in-twice');
/** Every stored item but the rate windows (the anonymous routes are counted per IP). */
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

const sessions = (items: Record<string, unknown>[]) => items.filter((item) => String(item.PK).startsWith('WEBSESS#'));

describe('A replayed sign-in callback', () => {
  it('twice in a row: the second answers "already used" (or the same redirect to the signed-in browser) and changes nothing', async () => {
    const alice = await pds().createAccount('alice');
    const jar = new CookieJar();
    const { callbackUrl } = await authorizeWithBluesky({
      baseUrl: server.baseUrl(),
      handle: alice.handle,
      password: alice.password,
      returnTo: '/account',
      cookieJar: jar,
    });
    const first = await deliverCallback(callbackUrl, jar);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${server.baseUrl()}/account`);
    const after = await stored();
    expect(sessions(after)).toHaveLength(1);

    const stranger = await deliverCallback(callbackUrl, new CookieJar());
    expect(stranger.status).toBe(409);
    expect(stranger.body).toContain('This sign-in link was already used');
    expect(stranger.headers['set-cookie']).toBeUndefined();

    const sameBrowser = await deliverCallback(callbackUrl, jar);
    expect(sameBrowser.status).toBe(303);
    expect(sameBrowser.location).toBe(first.location);
    expect(sameBrowser.headers['set-cookie']).toBeUndefined();
    expect(await stored()).toEqual(after);
  });

  it('16 deliveries in parallel from the signing-in browser: one account, one session, one 303; the other 15 are "already used"', async () => {
    const bob = await pds().createAccount('bob');
    const { callbackUrl, jar } = await authorizeWithBluesky({ baseUrl: server.baseUrl(), handle: bob.handle, password: bob.password });
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 16 }, () => deliverCallback(callbackUrl, jar.copy())));
    expect(answers.map((a) => a.status).sort()).toEqual([303, ...Array<number>(15).fill(409)]);
    expect(answers.filter((a) => a.headers['set-cookie'] !== undefined)).toHaveLength(1);
    const after = await stored();
    // The account item and the one session's index item under it (design.md#account-deletion: what deletion finds).
    expect(after.filter((item) => item.PK === `ACCOUNT#${bob.did}`).map((item) => String(item.SK).split('#')[0])).toEqual([
      'META',
      'WEBSESS',
    ]);
    expect(sessions(after).length - sessions(before).length).toBe(1);
    expect(logs.filter((line) => line.includes(bob.did))).toEqual([`lorebook: sign-in new account ${bob.did} as @${bob.handle}`]);
    // And a later replay still changes nothing.
    await deliverCallback(callbackUrl, new CookieJar());
    expect(await stored()).toEqual(after);
  });

  it('the same person signing in again is "returning": the same account, a second session for the second browser', async () => {
    const carol = await pds().createAccount('carol');
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: carol.handle, password: carol.password });
    const accountItem = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.PK === `ACCOUNT#${carol.did}` && item.SK === 'META');
    const sessionIndex = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.PK === `ACCOUNT#${carol.did}` && String(item.SK).startsWith('WEBSESS#'));
    const first = await stored();
    await signInWithBluesky({ baseUrl: server.baseUrl(), handle: carol.handle, password: carol.password });
    const second = await stored();
    expect(accountItem(second)).toEqual(accountItem(first));
    // Each browser's session is indexed under the account, so a deletion finds both.
    expect(sessionIndex(first)).toHaveLength(1);
    expect(sessionIndex(second)).toHaveLength(2);
    expect(logs).toContain(`lorebook: sign-in returning account ${carol.did} as @${carol.handle}`);
  });
});
