// The OAuth server stores what a client registers and the state it sends: none of it may hold a
// control character or line break. Over HTTP against the real server, each is refused (the OAuth
// error naming the field) and nothing is stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { authorizePath, get, newClient, type Person, pkcePair, registerClient, signedInPerson } from '../../helpers/oauth/oauth-flow.ts';

const server = useLorebookServer('e2e-oauth-control-characters');
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
let person: Person;

beforeAll(async () => {
  person = await signedInPerson(server.app.ctx(), 'controlled');
});

describe('control characters in OAuth metadata', () => {
  it.each([
    [
      'client_name',
      { client_name: 'Tab\tApp', redirect_uris: ['http://127.0.0.1:47125/callback'] },
      /client_name: Holds U\+0009 \(a tab\)/,
    ],
    ['client_name', { client_name: 'Bell \u0007 App', redirect_uris: ['http://127.0.0.1:47125/callback'] }, /client_name: Holds U\+0007/],
    ['redirect_uris', { client_name: 'Fine App', redirect_uris: ['http://127.0.0.1:47125/call\nback'] }, /redirect_uris\.0: Holds U\+000A/],
  ])('a registration whose %s holds one is invalid_client_metadata naming it, and nothing is stored', async (_field, metadata, named) => {
    const before = await observable();
    const refused = await registerClient(server.baseUrl(), metadata);
    expect(refused.status).toBe(400);
    expect(refused.json().error).toBe('invalid_client_metadata');
    expect(String(refused.json().error_description)).toMatch(named);
    expect(await observable()).toEqual(before);
  });

  it('an authorize request whose state holds a line break is refused (invalid_request) before any consent is stored', async () => {
    const client = await newClient(server.baseUrl(), 'State App');
    const before = await observable();
    const page = await get(
      server.baseUrl(),
      authorizePath({
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        code_challenge: pkcePair().challenge,
        state: 'st\n{"forged":1}',
      }),
      person.cookie,
    );
    expect(page.status).toBe(400);
    expect(page.text).toContain('state must be printable ASCII');
    expect(page.headers.get('location')).toBeNull();
    expect(await observable()).toEqual(before);
  });
});
