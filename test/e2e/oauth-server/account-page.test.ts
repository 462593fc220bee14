// The account page: the signed-in person's tokens and connected apps, each revocable with a
// CSRF-protected POST; revoking an app revokes its whole grant family; revoking twice (or 16
// times at once) changes nothing more; another person's ids and forged forms write nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { mintToken, tokenId } from '../../../src/auth/token-secret.ts';
import { createTokenItems } from '../../../src/store/identity/token-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizationCode,
  callListNotifications,
  exchange,
  get,
  newClient,
  type Person,
  post,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-account');
const base = (): string => server.baseUrl();
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

let alice: Person;
let bob: Person;
beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
  bob = await signedInPerson(server.app.ctx(), 'bob');
});

/** A token like the device flow or an admin issues: bound to the account, no resource. */
async function plainToken(person: Person, client: string): Promise<string> {
  const token = mintToken();
  const now = server.app.ctx().store.now();
  await writeAtomically(
    server.app.ctx().store,
    createTokenItems({
      token_hash: tokenId(token),
      account: person.did,
      client,
      created_at: new Date(now).toISOString(),
      expires_at: epochSeconds(now) + 3600,
    }),
  );
  return token;
}

async function connectApp(person: Person, name: string): Promise<{ access: string; grantId: string }> {
  const client = await newClient(base(), name);
  const { code, pkce } = await authorizationCode(base(), person, client);
  const access = String((await exchange(base(), client, code, pkce.verifier)).json().access_token);
  const grant = (await observable()).find(
    (item) => String(item.PK).startsWith('GRANT#') && item.SK === 'META' && item.client_id === client.client_id,
  );
  return { access, grantId: String(grant?.grant_id) };
}

const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
const revoke = (person: Person, csrf: string, kind: string, id: string) =>
  post(base(), '/account/revoke', { csrf, kind, id }, { Cookie: person.cookie, Origin: base() });

describe('the account page', () => {
  it('without a sign-in it sends the browser to Sign in with Bluesky and back to /account', async () => {
    const answer = await get(base(), '/account');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/auth/login?return_to=%2Faccount');
  });

  it("lists the person's tokens (device/admin and app access tokens) and connected apps, and nobody else's", async () => {
    await plainToken(alice, 'my-script');
    await connectApp(alice, 'Alice App');
    await connectApp(bob, 'Bob App');
    const page = await get(base(), '/account', alice.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('@alice.test');
    expect(page.text).toContain('my-script');
    expect(page.text).toContain('Alice App');
    expect(page.text).toContain('app access token');
    expect(page.text).not.toContain('Bob App');
  });

  it('disconnecting an app revokes its grant family: its token stops working; twice and 16 times in parallel change nothing more', async () => {
    const { access, grantId } = await connectApp(alice, 'Disconnect Me');
    expect((await callListNotifications(base(), access)).status).toBe(200);
    const csrf = csrfOf((await get(base(), '/account', alice.cookie)).text);
    const first = await revoke(alice, csrf, 'grant', grantId);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/account?done=revoked');
    expect((await callListNotifications(base(), access)).status).toBe(401);
    expect((await observable()).filter((item) => item.grant_id === grantId && !String(item.PK).startsWith('AUTHCODE#'))).toEqual([]);
    const after = await observable();
    expect((await revoke(alice, csrf, 'grant', grantId)).headers.get('location')).toBe('/account?done=gone');
    await Promise.all(Array.from({ length: 16 }, () => revoke(alice, csrf, 'grant', grantId)));
    expect(await observable()).toEqual(after);
    expect((await get(base(), '/account', alice.cookie)).text).not.toContain('Disconnect Me');
  });

  it('revoking a token works once; the second revoke writes nothing', async () => {
    const token = await plainToken(alice, 'revoke-me');
    const csrf = csrfOf((await get(base(), '/account', alice.cookie)).text);
    expect((await revoke(alice, csrf, 'token', tokenId(token))).headers.get('location')).toBe('/account?done=revoked');
    expect((await callListNotifications(base(), token)).status).toBe(401);
    const after = await observable();
    expect((await revoke(alice, csrf, 'token', tokenId(token))).headers.get('location')).toBe('/account?done=gone');
    expect(await observable()).toEqual(after);
  });

  it("a forged form (wrong CSRF token) and another person's ids write nothing", async () => {
    const bobToken = await plainToken(bob, 'bobs-script');
    const bobApp = await connectApp(bob, 'Bob Keeps This');
    const before = await observable();
    const forged = await revoke(alice, 'not-the-token', 'grant', bobApp.grantId);
    expect(forged.status).toBe(403);
    const csrf = csrfOf((await get(base(), '/account', alice.cookie)).text);
    const bobsCsrf = csrfOf((await get(base(), '/account', bob.cookie)).text);
    expect((await revoke(alice, bobsCsrf, 'token', tokenId(bobToken))).status).toBe(403);
    expect((await revoke(alice, csrf, 'token', tokenId(bobToken))).headers.get('location')).toBe('/account?done=gone');
    expect((await revoke(alice, csrf, 'grant', bobApp.grantId)).headers.get('location')).toBe('/account?done=gone');
    expect(await observable()).toEqual(before);
    expect((await callListNotifications(base(), bobApp.access)).status).toBe(200);
  });
});
