// Sign-in records are twice-safe like every other write: a double-clicked consent (twice in a row,
// 16 in parallel, or the same form replayed later) makes one grant and one code and answers the
// same redirect; a registration delivered twice is one client; a revocation delivered twice
// changes nothing more. Stored items are compared in full.
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizationCode,
  authorizePath,
  consentSecretOf,
  decide,
  exchange,
  get,
  newClient,
  type Person,
  pkcePair,
  post,
  registerClient,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-twice');
const base = (): string => server.baseUrl();
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

let alice: Person;
beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
});

async function consentPage(clientName: string): Promise<{ secret: string; clientId: string }> {
  const client = await newClient(base(), clientName);
  const page = await get(
    base(),
    authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge, state: 'z' }),
    alice.cookie,
  );
  return { secret: consentSecretOf(page.text), clientId: client.client_id };
}

const grantsAndCodes = async (clientId: string) =>
  (await observable()).filter((item) => item.client_id === clientId && /^(GRANT|AUTHCODE)#/.test(String(item.PK)));

describe('a double-clicked consent', () => {
  it('approved twice in a row: one grant, one code, the same redirect, nothing changed by the second', async () => {
    const { secret, clientId } = await consentPage('Twice in a row');
    const first = await decide(base(), alice.cookie, secret, 'approve');
    const after = await observable();
    const second = await decide(base(), alice.cookie, secret, 'approve');
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await observable()).toEqual(after);
    expect((await grantsAndCodes(clientId)).map((item) => String(item.PK).split('#')[0])).toEqual(['AUTHCODE', 'GRANT']);
  });

  it('approved 16 times in parallel: one grant and one code, every answer the same redirect', async () => {
    const { secret, clientId } = await consentPage('Sixteen clicks');
    const answers = await Promise.all(Array.from({ length: 16 }, () => decide(base(), alice.cookie, secret, 'approve')));
    const locations = new Set(answers.map((answer) => answer.headers.get('location')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(303));
    expect(locations.size).toBe(1);
    expect(new URL([...locations][0] ?? '').searchParams.get('code')).toMatch(/^lba_/);
    const stored = await grantsAndCodes(clientId);
    expect(stored.filter((item) => String(item.PK).startsWith('GRANT#'))).toHaveLength(1);
    expect(stored.filter((item) => String(item.PK).startsWith('AUTHCODE#'))).toHaveLength(1);
    expect((await observable()).filter((item) => String(item.SK).startsWith('GRANT#') && item.client_id === clientId)).toHaveLength(1);
  });

  it('the same form replayed later (or Deny after Approve) answers the first decision and writes nothing', async () => {
    const { secret } = await consentPage('Replayed later');
    const first = await decide(base(), alice.cookie, secret, 'approve');
    const after = await observable();
    server.app.advance(60_000);
    expect((await decide(base(), alice.cookie, secret, 'approve')).headers.get('location')).toBe(first.headers.get('location'));
    expect((await decide(base(), alice.cookie, secret, 'deny')).headers.get('location')).toBe(first.headers.get('location'));
    expect(await observable()).toEqual(after);
  });

  it('reloading the consent page shows the same form; after the answer, a reload sends the same answer again', async () => {
    const client = await newClient(base(), 'Reloader');
    const path = authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge });
    const first = await get(base(), path, alice.cookie);
    const afterFirst = await observable();
    const reload = await get(base(), path, alice.cookie);
    expect(consentSecretOf(reload.text)).toBe(consentSecretOf(first.text));
    expect(await observable()).toEqual(afterFirst);
    const approved = await decide(base(), alice.cookie, consentSecretOf(first.text), 'approve');
    const afterApprove = await observable();
    const back = await get(base(), path, alice.cookie);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(approved.headers.get('location'));
    expect(await observable()).toEqual(afterApprove);
  });
});

describe('a consent past its lifetime', () => {
  it('unanswered for over 10 minutes: answering is refused and writes nothing; reloading the request shows a fresh form', async () => {
    const client = await newClient(base(), 'Slow reader');
    const path = authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge });
    const secret = consentSecretOf((await get(base(), path, alice.cookie)).text);
    server.app.advance(11 * 60_000);
    const before = await observable();
    expect((await decide(base(), alice.cookie, secret, 'approve')).status).toBe(400);
    expect(await observable()).toEqual(before);
    const reload = await get(base(), path, alice.cookie);
    expect(reload.status).toBe(200);
    expect((await decide(base(), alice.cookie, consentSecretOf(reload.text), 'approve')).status).toBe(303);
  });

  it('answered, then reloaded 23 hours later: the same answer, nothing written', async () => {
    const client = await newClient(base(), 'Day later');
    const path = authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge });
    const approved = await decide(base(), alice.cookie, consentSecretOf((await get(base(), path, alice.cookie)).text), 'approve');
    // Long past the consent's 10 minutes, within the 24 h a client that never exchanged a code lives.
    server.app.advance(23 * 3600_000);
    const after = await observable();
    const reload = await get(base(), path, alice.cookie);
    expect(reload.headers.get('location')).toBe(approved.headers.get('location'));
    expect(await observable()).toEqual(after);
  });
});

describe('registration and revocation delivered twice', () => {
  it('the same registration twice in a row and 16 times in parallel is one client', async () => {
    const metadata = { client_name: 'Registered twice', redirect_uris: ['http://127.0.0.1:45555/cb'] };
    const first = await registerClient(base(), metadata);
    expect(first.status).toBe(201);
    const after = await observable();
    const again = await registerClient(base(), metadata);
    expect(again.json()).toEqual(first.json());
    const parallel = await Promise.all(Array.from({ length: 16 }, () => registerClient(base(), metadata)));
    for (const answer of parallel) expect(answer.json()).toEqual(first.json());
    expect(await observable()).toEqual(after);
  });

  it('revoking a refresh token twice (and 16 times in parallel) revokes the family once and changes nothing more', async () => {
    const client = await newClient(base(), 'Revoked twice');
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const tokens = (await exchange(base(), client, code, pkce.verifier)).json();
    const revoke = () => post(base(), '/oauth/revoke', { token: String(tokens.refresh_token), client_id: client.client_id });
    expect((await revoke()).status).toBe(200);
    const after = await observable();
    expect(
      after.filter(
        (item) =>
          item.client_id === client.client_id &&
          !String(item.PK).startsWith('AUTHCODE#') &&
          !String(item.PK).startsWith('OAUTHCLIENT#') &&
          !String(item.PK).startsWith('CONSENT#'),
      ),
    ).toEqual([]);
    expect((await revoke()).status).toBe(200);
    expect((await Promise.all(Array.from({ length: 16 }, revoke))).map((answer) => answer.status)).toEqual(Array(16).fill(200));
    expect(await observable()).toEqual(after);
  });

  it('16 parallel exchanges of one code never leave two token sets: one wins, the rest are replays that revoke it', async () => {
    const client = await newClient(base(), 'Sixteen exchanges');
    const { code, pkce } = await authorizationCode(base(), alice, client);
    const answers = await Promise.all(Array.from({ length: 16 }, () => exchange(base(), client, code, pkce.verifier)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array(15).fill(400)]);
    expect((await observable()).filter((item) => item.client_id === client.client_id && /^(TOKEN|REFRESH)#/.test(String(item.PK)))).toEqual(
      [],
    );
  });
});
