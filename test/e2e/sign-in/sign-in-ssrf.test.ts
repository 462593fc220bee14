// SSRF through Sign in with Bluesky: /auth/login is anonymous, and the handle or DID it is given
// names the hosts the server fetches (a did:web host, the PDS a DID document names, their OAuth
// metadata). By default (no LOREBOOK_ALLOW_PRIVATE_FETCH) none of those fetches reaches this
// machine: a loopback server standing in for an internal service sees no connection at all.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import { send } from '../../helpers/signin/http-client.ts';

let internal: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  // An internal service that would happily serve a DID document (and anything else).
  internal = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `did:web:localhost%3A${port}`,
        service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: `http://localhost:${port}` }],
      }),
    );
  });
  internal.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  port = (internal.address() as AddressInfo).port;
});
afterAll(async () => {
  internal.closeAllConnections();
  await new Promise<void>((resolve) => internal.close(() => resolve()));
});

// The loopback development client, as `npm start` runs it: no private-fetch opt-in. Even the
// operator's resolver settings point at the internal service, so any fetch at all would show.
const server = useLorebookServer('e2e-sign-in-ssrf', {
  signIn: () => ({
    config: { mode: 'loopback', handleResolver: `http://127.0.0.1:${port}`, plcDirectoryUrl: `http://127.0.0.1:${port}` },
    log: () => undefined,
  }),
});
const stored = async () => (await server.app.allItems()).filter((item) => !String(item.PK).startsWith('RATE#'));

describe('Sign in with Bluesky never fetches private addresses by default', () => {
  it.each([
    ['did:web on localhost', () => `did:web:localhost%3A${port}`],
    ['did:web on 127.0.0.1', () => `did:web:127.0.0.1%3A${port}`],
    ['a handle (resolved at the configured resolver)', () => 'someone.internal.test'],
    ['a did:plc (resolved at the configured directory)', () => 'did:plc:ewvi7nxzyoun6zhxrhs64oiz'],
  ])('anonymous /auth/login with %s: a typed refusal, no connection to the internal service, nothing stored', async (_, identifier) => {
    const before = await stored();
    const answer = await send('GET', `${server.baseUrl()}/auth/login?handle=${encodeURIComponent(identifier())}`, {
      headers: { accept: 'application/json' },
    });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'not_found', retryable: false, details: { reason: 'unknown_handle' } });
    expect(connections).toBe(0);
    expect(await stored()).toEqual(before);
  });
});
